// Where a delivery may go. Unless WEBHOOK_ALLOW_PRIVATE=true, a webhook never
// reaches loopback, private, link-local (cloud metadata), carrier-grade NAT,
// multicast or otherwise reserved addresses. The check runs on the addresses
// the name resolves to at delivery time, and the connection goes to the
// address that was checked (no second lookup an attacker's DNS could answer
// differently).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export class UnsafeTargetError extends Error {}

/** Is this address one a webhook may reach without WEBHOOK_ALLOW_PRIVATE? */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  // ::ffff:10.0.0.1 is 10.0.0.1.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** Checks a webhook URL's form (at creation and update). */
export function checkWebhookUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `url must be an absolute http or https URL, got '${value}'`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `url must use http or https, got '${url.protocol}'`;
  if (url.username || url.password) return 'url must not contain credentials';
  if (value.length > 2000) return 'url must have at most 2000 characters';
  return url;
}

/** The address to connect to for a URL: resolved and checked. */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new UnsafeTargetError(`cannot resolve ${host}`);
      });
  if (addresses.length === 0) throw new UnsafeTargetError(`cannot resolve ${host}`);
  if (!allowPrivate) {
    // Every address the name has must be public: one private answer is enough to refuse.
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw new UnsafeTargetError(
        `${host} resolves to ${refused.address}, a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)`,
      );
  }
  return { address: addresses[0]!.address, family: addresses[0]!.family as 4 | 6 };
}
