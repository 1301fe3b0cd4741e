/** The Amazon Creators API resolver (stage `retailer_api`). */
export { creatorsResolver, type CreatorsResolver, type CreatorsResolverDeps } from './resolver.js';
export {
  CREATORS_VERSIONS,
  CreatorsConfigError,
  DEFAULT_API_BASE_URL,
  Secret,
  TOKEN_URLS,
  creatorsConfigSchema,
  creatorsCredentialSchema,
  parseCreatorsConfig,
  type CreatorsConfig,
  type CreatorsCredential,
  type CreatorsCredentialConfig,
  type CreatorsVersion,
} from './config.js';
export { CreatorsClient, type CredentialRuntime } from './client.js';
export { authorizationHeader } from './token.js';
export { SEARCH_RESOURCES, type SearchParams } from './wire.js';
export { truncateTitle } from '../wire.js';
