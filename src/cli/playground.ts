/**
 * The playground page of `chatads serve`: `/` and a fixed list of files under `/playground/`,
 * read once at start and answered from memory (so no request path ever reaches the file
 * system), plus `/playground/config.json` with the key the page may use. Every other request
 * goes on to the API listener unchanged.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** No inline script or style, nothing from elsewhere: the page is files of this server only. */
export const PLAYGROUND_CSP = "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:";

export const CONFIG_PATH = '/playground/config.json';

/** URL path → file (relative to the package root) and its content type. The whole allow-list. */
const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'playground/index.html', type: 'text/html; charset=utf-8' },
  '/playground/index.html': { file: 'playground/index.html', type: 'text/html; charset=utf-8' },
  '/playground/app.js': { file: 'playground/app.js', type: 'text/javascript; charset=utf-8' },
  '/playground/style.css': { file: 'playground/style.css', type: 'text/css; charset=utf-8' },
  // The browser build of src/linkify (tsup.config.ts): its own folder, outside dist/.
  '/playground/linkify.js': { file: 'dist-browser/linkify.js', type: 'text/javascript; charset=utf-8' },
};

interface Asset {
  type: string;
  body: Buffer;
  cache: string;
}

export interface Playground {
  assets: ReadonlyMap<string, Asset>;
  /** The key handed to the page (the demo team's `playground` key), or null: the page asks for one. */
  demoKey: string | null;
}

/** The directory of chatads' package.json, from this module's place (dist/ or src/cli/). */
function packageRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'chatads') return dir;
      } catch {
        // Not ours, or unreadable: keep looking upwards.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/** Reads the page's files; a string says what is missing (the server then runs without the page). */
export function loadPlayground(demoKey: string | null, root: string | null = packageRoot()): Playground | string {
  if (!root) return 'cannot find the chatads package folder';
  const assets = new Map<string, Asset>();
  for (const [path, { file, type }] of Object.entries(FILES)) {
    const full = join(root, file);
    try {
      assets.set(path, { type, body: readFileSync(full), cache: 'no-cache' });
    } catch {
      return `missing ${full}${file.startsWith('dist-browser/') ? ' (run npm run build)' : ''}`;
    }
  }
  return { assets, demoKey };
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 or [::1], with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0]!).toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * config.json. The key goes only to a page opened under a loopback host name: a page of another
 * site that rebinds its DNS name to this machine (same origin to the browser) gets null.
 */
function configAsset(playground: Playground, req: IncomingMessage): Asset {
  const demoKey = playground.demoKey && isLoopbackHost(req.headers.host) ? playground.demoKey : null;
  return { type: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify({ demoKey })), cache: 'no-store' };
}

function send(req: IncomingMessage, res: ServerResponse, asset: Asset): void {
  res.writeHead(200, {
    'content-type': asset.type,
    'content-length': asset.body.byteLength,
    'cache-control': asset.cache,
    'content-security-policy': PLAYGROUND_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}

/** The playground's GET/HEAD paths, else `api`. Paths are compared as sent: nothing is decoded or resolved. */
export function withPlayground(playground: Playground, api: RequestListener): RequestListener {
  return (req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const path = (req.url ?? '/').split('?', 1)[0]!;
      const asset = path === CONFIG_PATH ? configAsset(playground, req) : playground.assets.get(path);
      if (asset) {
        // A GET has no body to wait for; drain anything sent anyway so the connection stays usable.
        req.resume();
        send(req, res, asset);
        return;
      }
    }
    api(req, res);
  };
}
