/** What a resolver's call came to, as the chain counts it: "ok", "not_found" or the kind of its ResolverFailure. */
import { ResolverFailure } from '../../src/core/resolve/resolver.js';

export async function outcomeOf(call: Promise<unknown>): Promise<string> {
  try {
    return (await call) === null ? 'not_found' : 'ok';
  } catch (err) {
    if (err instanceof ResolverFailure) return err.kind;
    throw err;
  }
}
