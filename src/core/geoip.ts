/**
 * IP → country with a real database shipped inside an npm package
 * (@ip-location-db/geo-whois-asn-country-mmdb, CC0), read with `maxmind`. Loaded once, lazily;
 * nothing is downloaded at run time. Private, reserved and unknown addresses resolve to null.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import type { CountryResponse, Reader } from 'maxmind';
import { isCountry } from './country.js';

export interface GeoIp {
  /** The ISO country of a public address, or null. Never throws. */
  lookup(ip: string): string | null;
}

interface CountryRecord {
  country_code?: string;
}

const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

const DATABASE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/** "::ffff:81.2.69.142" is the IPv4 address 81.2.69.142 and is looked up as such. */
function unmapped(ip: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
}

export function isPublicIp(ip: string): boolean {
  const address = unmapped(ip);
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Opens an mmdb file (the shipped one by default). Synchronous: it is read once at start-up. */
export function openGeoIp(file?: string): GeoIp {
  const path = file ?? createRequire(import.meta.url).resolve(DATABASE);
  // maxmind is required here, not imported at the top: a process that never sees an `ip` (most
  // in-process users) skips its dozen modules, ~12 ms of a cold start.
  const maxmind = createRequire(import.meta.url)('maxmind') as { Reader: typeof Reader };
  // This database's records are flat ({ country_code }), not MaxMind's nested country shape.
  const reader = new maxmind.Reader<CountryResponse>(readFileSync(path));
  return {
    lookup(ip) {
      if (!isPublicIp(ip)) return null;
      try {
        const record = reader.get(unmapped(ip)) as CountryRecord | null;
        const code = record?.country_code?.toUpperCase();
        return code && isCountry(code) ? code : null;
      } catch {
        return null;
      }
    },
  };
}
