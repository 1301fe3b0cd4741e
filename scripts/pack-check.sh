#!/usr/bin/env bash
# Packs the library, installs the tarball into an empty project (with express and hono, its
# optional peers) and imports and requires every entry point there, as a user would. Then the
# MCP entry: "chatads mcp" without its optional peer @modelcontextprotocol/sdk (a one-line
# hint, exit 1), and with it (chatads/mcp imported and required, the bin answering a client).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# The pinned Node 24 runs the consumer code; npm itself stays the machine's own (its global
# config, e.g. the CA file, belongs to that installation).
node24="$root/node_modules/.bin/node"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$root"
npm run build --silent
tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "packed $tarball ($(du -h "$work/$tarball" | cut -f1))"

cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "./$tarball" express@^5 hono@^4 >/dev/null

cat > esm.mjs <<'JS'
import { createChatAds, generateKey } from 'chatads';
import { chatAdsRouter } from 'chatads/express';
import { chatAdsApp } from 'chatads/hono';
import { chatAdsListener } from 'chatads/node';
import { linkify } from 'chatads/linkify';
import { affiliateLinks } from 'chatads/ai';
import { createChatAdsClient } from 'chatads/client';
import { prometheusMetrics } from 'chatads/metrics';
const metrics = prometheusMetrics();
const chatads = createChatAds({ affiliate_tags: { US: 'pack-20' } , metrics });
const data = await chatads.analyze({ message: 'Which air fryer should I buy?' });
if (!data.offers[0]?.url?.includes('tag=pack-20')) throw new Error('no offer: ' + JSON.stringify(data));
for (const f of [generateKey, chatAdsRouter, chatAdsApp, chatAdsListener, affiliateLinks, createChatAdsClient]) if (typeof f !== 'function') throw new Error('missing export');
if (!(await metrics.text()).includes('chatads_analyses_total{status="filled"} 1')) throw new Error('chatads/metrics did not count');
// The language gate loads its detector (the eld package) on the first text it cannot settle.
const de = await chatads.analyze({ message: 'Welcher Staubsauger ist gut für Tierhaare? Wir haben zwei Katzen.' });
if (de.reason !== 'unsupported_language' || de.language !== 'de') throw new Error('language gate: ' + JSON.stringify(de));
console.log('esm ok:', linkify('Which air fryer should I buy?', data.offers).text.split('\n')[0], '· de gated');
JS
cat > cjs.cjs <<'JS'
const { createChatAds } = require('chatads');
const { chatAdsRouter } = require('chatads/express');
const { chatAdsApp } = require('chatads/hono');
const { chatAdsListener } = require('chatads/node');
const { linkify } = require('chatads/linkify');
const { affiliateLinks } = require('chatads/ai');
const { createChatAdsClient } = require('chatads/client');
const { prometheusMetrics } = require('chatads/metrics');
for (const f of [createChatAds, prometheusMetrics, chatAdsRouter, chatAdsApp, chatAdsListener, linkify, affiliateLinks, createChatAdsClient]) if (typeof f !== 'function') throw new Error('missing export');
const cjsChatads = createChatAds({ affiliate_tags: { US: 'pack-20' } });
Promise.all([
  cjsChatads.analyze({ message: 'Which air fryer should I buy?' }),
  cjsChatads.analyze({ message: 'Quelle friteuse sans huile acheter pour une famille de quatre personnes ?' }),
]).then(([d, fr]) => {
  if (fr.reason !== 'unsupported_language') throw new Error('language gate: ' + JSON.stringify(fr));
  console.log('cjs ok:', d.offers[0].url, '· fr gated');
});
JS
echo "consumer node $("$node24" -v)"
"$node24" esm.mjs
"$node24" cjs.cjs
PATH="$(dirname "$node24"):$PATH" ./node_modules/.bin/chatads keys create --json >/dev/null && echo "bin ok: chatads keys create"
# chatads analyze from the installed bin: results in order, the summary, a report file.
analyzed="$(printf 'Which air fryer should I buy?\n{broken\n' | PATH="$(dirname "$node24"):$PATH" ./node_modules/.bin/chatads analyze --message-analysis fast --report report.html 2>analyze.err)"
[[ "$analyzed" == '{"line":1,"data":{"status":"filled"'*'{"line":2,"error":{"code":"INVALID_JSON"'* ]] || { echo "chatads analyze printed: $analyzed" >&2; exit 1; }
grep -q '^chatads analyze: 2 lines' analyze.err && grep -q '<svg role="img"' report.html || { cat analyze.err >&2; echo "chatads analyze: no summary or report" >&2; exit 1; }
echo "bin ok: chatads analyze (results, summary, report)"
# The playground page `chatads serve` answers at / ships with the package.
for f in playground/index.html playground/app.js playground/style.css dist-browser/linkify.js; do
  test -f "node_modules/chatads/$f" || { echo "missing from the package: $f" >&2; exit 1; }
done
echo "playground files ok"

# chatads mcp without the SDK: the help works, the command says what to install.
bin_path="$(dirname "$node24"):$PATH"
mcp_help() {
  local help
  help="$(PATH="$bin_path" npx --no-install chatads mcp --help)"
  [[ "$help" == "Usage: chatads mcp "* ]] || { echo "chatads mcp --help printed: $help" >&2; exit 1; }
}
mcp_help && echo "bin ok: npx chatads mcp --help (no SDK)"
set +e
missing="$(PATH="$bin_path" ./node_modules/.bin/chatads mcp </dev/null 2>&1)"
status=$?
set -e
if [ "$status" -ne 1 ] || ! grep -q 'npm install @modelcontextprotocol/sdk' <<<"$missing"; then
  echo "chatads mcp without the SDK: expected exit 1 and the install hint, got $status: $missing" >&2
  exit 1
fi
echo "bin ok: chatads mcp without the SDK exits 1 with the install hint"

npm install --no-audit --no-fund --silent @modelcontextprotocol/sdk@^1.32 >/dev/null

cat > mcp.mjs <<'JS'
import { createChatAds } from 'chatads';
import { createChatAdsMcpServer, chatAdsMcpHttpListener, TOOL_NAME } from 'chatads/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
if (typeof chatAdsMcpHttpListener !== 'function') throw new Error('missing export');
async function call(transport) {
  const client = new Client({ name: 'pack-check', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const result = await client.callTool({ name: TOOL_NAME, arguments: { message: 'Which air fryer should I buy?' } });
  await client.close();
  const url = result.structuredContent?.offers?.[0]?.url ?? '';
  if (tools[0]?.name !== TOOL_NAME || !url.includes('tag=')) throw new Error('no offer: ' + JSON.stringify(result));
  return url;
}
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
const chatads = createChatAds({ affiliate_tags: { US: 'pack-20' } });
await createChatAdsMcpServer({ analyzer: chatads }).connect(serverSide);
console.log('mcp esm ok:', await call(clientSide));
await chatads.close();
const bin = new StdioClientTransport({ command: './node_modules/.bin/chatads', args: ['mcp'], stderr: 'ignore' });
console.log('bin ok: chatads mcp on stdio:', await call(bin));
JS
cat > mcp.cjs <<'JS'
const { createChatAdsMcpServer, chatAdsMcpHttpListener, TOOL_NAME } = require('chatads/mcp');
const { createChatAds } = require('chatads');
for (const f of [createChatAdsMcpServer, chatAdsMcpHttpListener]) if (typeof f !== 'function') throw new Error('missing export');
const server = createChatAdsMcpServer({ analyzer: createChatAds() });
if (typeof server.connect !== 'function' || TOOL_NAME !== 'chatads_message_send') throw new Error('not an McpServer');
console.log('mcp cjs ok:', TOOL_NAME);
JS
PATH="$bin_path" "$node24" mcp.mjs
"$node24" mcp.cjs
mcp_help && echo "bin ok: npx chatads mcp --help"
