#!/usr/bin/env bash
# Packs the library, installs the tarball into an empty project (with express and hono, its
# optional peers) and imports and requires every entry point there, as a user would.
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
const chatads = createChatAds({ affiliate_tags: { US: 'pack-20' } });
const data = await chatads.analyze({ message: 'Which air fryer should I buy?' });
if (!data.offers[0]?.url?.includes('tag=pack-20')) throw new Error('no offer: ' + JSON.stringify(data));
for (const f of [generateKey, chatAdsRouter, chatAdsApp, chatAdsListener, affiliateLinks, createChatAdsClient]) if (typeof f !== 'function') throw new Error('missing export');
console.log('esm ok:', linkify('Which air fryer should I buy?', data.offers).text.split('\n')[0]);
JS
cat > cjs.cjs <<'JS'
const { createChatAds } = require('chatads');
const { chatAdsRouter } = require('chatads/express');
const { chatAdsApp } = require('chatads/hono');
const { chatAdsListener } = require('chatads/node');
const { linkify } = require('chatads/linkify');
const { affiliateLinks } = require('chatads/ai');
const { createChatAdsClient } = require('chatads/client');
for (const f of [createChatAds, chatAdsRouter, chatAdsApp, chatAdsListener, linkify, affiliateLinks, createChatAdsClient]) if (typeof f !== 'function') throw new Error('missing export');
createChatAds({ affiliate_tags: { US: 'pack-20' } })
  .analyze({ message: 'Which air fryer should I buy?' })
  .then((d) => console.log('cjs ok:', d.offers[0].url));
JS
echo "consumer node $("$node24" -v)"
"$node24" esm.mjs
"$node24" cjs.cjs
PATH="$(dirname "$node24"):$PATH" ./node_modules/.bin/chatads keys create --json >/dev/null && echo "bin ok: chatads keys create"
# The playground page `chatads serve` answers at / ships with the package.
for f in playground/index.html playground/app.js playground/style.css dist-browser/linkify.js; do
  test -f "node_modules/chatads/$f" || { echo "missing from the package: $f" >&2; exit 1; }
done
echo "playground files ok"
