import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { HttpError, badRequest } from '../../app/errors.js';
import { ADMIN_MSG } from '../messages.js';

/**
 * Addresses a `source_url` may not reach (no SSRF, docs/admin.md "Import rules"): loopback,
 * private, link-local, carrier-grade NAT, multicast, reserved and documentation ranges, and the
 * translated IPv6 forms. Node's BlockList checks an IPv4-mapped IPv6 address (::ffff:127.0.0.1)
 * against the IPv4 rules itself, so it needs no rule of its own.
 */
const PRIVATE_V4: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const PRIVATE_V6: [string, number][] = [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];

const privateRanges = new BlockList();
for (const [net, prefix] of PRIVATE_V4) privateRanges.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of PRIVATE_V6) privateRanges.addSubnet(net, prefix, 'ipv6');

/** `127.0.0.1`, `10.0.0.0/8`, `::1`: the networks `IMPORT_URL_ALLOW` lets through. Throws on a bad entry. */
export function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const [address, prefixText] = raw.trim().split('/');
    const family = isIP(address);
    if (family === 0) throw new Error(`invalid IMPORT_URL_ALLOW entry: ${raw} (expected an IP address or a network such as 10.0.0.0/8)`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`invalid IMPORT_URL_ALLOW entry: ${raw} (prefix from 0 to ${max})`);
    list.addSubnet(address, prefix, type);
  }
  return list;
}

/** Whether an address may be reached: public, or in the allow-list. */
export function addressAllowed(address: string, allow: BlockList): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return allow.check(address, type) || !privateRanges.check(address, type);
}

export interface SourceFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  allow: BlockList;
}

interface Resolved {
  address: string;
  family: 4 | 6;
}

/** Every address of a host, each checked: one refused address refuses the host (DNS can answer either). */
async function resolveChecked(host: string, allow: BlockList): Promise<Resolved[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  let addresses: Resolved[];
  if (literal) addresses = [{ address: bare, family: literal as 4 | 6 }];
  else {
    try {
      addresses = (await dnsLookup(bare, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } catch {
      throw badRequest(ADMIN_MSG.urlUnresolved(bare));
    }
    if (addresses.length === 0) throw badRequest(ADMIN_MSG.urlUnresolved(bare));
  }
  for (const a of addresses) if (!addressAllowed(a.address, allow)) throw badRequest(ADMIN_MSG.urlPrivate(bare, a.address));
  return addresses;
}

/**
 * Downloads an import archive from an http(s) URL without letting it reach the server's own
 * network: the host is resolved and every address checked before connecting, the connection is
 * pinned to the checked addresses (a second DNS answer cannot swap in another), each redirect is
 * checked the same way, and the download is bounded in size and time.
 */
export async function fetchSource(rawUrl: string, options: SourceFetchOptions): Promise<Uint8Array> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let url = parseUrl(rawUrl);
  for (let redirects = 0; ; redirects++) {
    const addresses = await resolveChecked(url.hostname, options.allow);
    const response = await get(url, addresses, deadline, options);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (redirects >= options.maxRedirects) throw new HttpError(502, ADMIN_MSG.urlTooManyRedirects(options.maxRedirects));
      url = parseUrl(new URL(response.headers.location, url).toString());
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new HttpError(502, ADMIN_MSG.urlStatus(status));
    }
    return readBounded(response, options, deadline);
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(ADMIN_MSG.urlInvalid);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(ADMIN_MSG.urlProtocol(url.protocol.replace(/:$/, '')));
  return url;
}

function get(url: URL, addresses: Resolved[], signal: AbortSignal, options: SourceFetchOptions): Promise<IncomingMessage> {
  // The socket connects to the addresses checked above, whatever a new DNS query would say.
  const lookup: LookupFunction = (_host, opts, callback) => {
    const all = (opts as { all?: boolean }).all;
    if (all) (callback as unknown as (err: null, list: Resolved[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'GET', lookup, signal, headers: { 'user-agent': 'bt-admin-import', accept: 'application/zip, */*' } }, resolve);
    req.on('error', (err) => reject(failure(err, signal, options)));
    req.end();
  });
}

function readBounded(response: IncomingMessage, options: SourceFetchOptions, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length']);
  const tooLarge = () => new HttpError(413, ADMIN_MSG.importTooLarge(Math.round(options.maxBytes / (1024 * 1024))));
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    response.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxBytes) {
        // Refused first: destroying the response emits 'aborted' at once.
        reject(tooLarge());
        response.destroy();
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks, size)));
    response.on('error', (err) => reject(failure(err, signal, options)));
    response.on('aborted', () => reject(failure(new Error('connection closed'), signal, options)));
  });
}

function failure(err: Error, signal: AbortSignal, options: SourceFetchOptions): HttpError {
  if (signal.aborted) return new HttpError(504, ADMIN_MSG.urlTimeout(Math.round(options.timeoutMs / 1000)));
  const code = (err as NodeJS.ErrnoException).code;
  return new HttpError(502, ADMIN_MSG.urlFailed(code ? `${code}` : err.message));
}
