/**
 * A refusal or a failure of the analyzer as a tool result: `isError` and one text with the code
 * and the service's message. Never the request's message text: only messages written by chatads
 * itself are shown, and only the paths and wording of validation issues.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

interface Failure {
  code: string;
  message: string;
  details?: unknown;
}

/** Errors whose message chatads wrote (the core's, or the client's), from any copy of the package. */
const OWN_ERRORS = new Set(['ChatAdsError', 'ChatAdsClientError']);

export function failureOf(err: unknown): Failure {
  const e = err as Partial<Failure> & { name?: unknown };
  if (err instanceof Error && OWN_ERRORS.has(String(e.name)) && typeof e.code === 'string') {
    return { code: e.code, message: err.message, details: e.details };
  }
  // Anything else may carry text from anywhere: its name only.
  return { code: 'INTERNAL_ERROR', message: `The analysis failed (${err instanceof Error ? err.name : typeof err}).` };
}

/** `CODE: message`, then one line per invalid field and the numeric details (limits, usage). */
export function failureText(f: Failure): string {
  const lines = [`${f.code}: ${f.message}`];
  const details = f.details && typeof f.details === 'object' ? (f.details as Record<string, unknown>) : {};
  if (Array.isArray(details.issues)) {
    for (const issue of details.issues as { path?: unknown; message?: unknown }[]) {
      lines.push(`- ${String(issue.path ?? '') || '(request)'}: ${String(issue.message ?? '')}`);
    }
  }
  const numbers = Object.entries(details).filter(([, v]) => typeof v === 'number');
  if (numbers.length > 0) lines.push(numbers.map(([k, v]) => `${k}: ${v}`).join(', '));
  return lines.join('\n');
}

export function errorResult(err: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: failureText(failureOf(err)) }] };
}
