import "server-only";
// The client address rule of contract §1: which TCP peers may call /api/v1 (always the TCP peer: a forwarded
// address never widens it). And the client address that throttling, sessions and last_auth_ip record: behind a
// proxy named in TRUSTED_PROXIES, the rightmost X-Forwarded-For entry that is not itself a trusted proxy.
import net from "node:net";
import os from "node:os";
import { setBounded } from "../store/bounded-map";
import { FORWARDED_FOR_HEADER, PEER_ADDRESS_HEADER } from "@/lib/runtime/edge.mjs";
import { env } from "../env";

// Written by lib/runtime/server.mjs from the socket and the request as it arrived; read here.
export { FORWARDED_FOR_HEADER, PEER_ADDRESS_HEADER };

let cachedList: net.BlockList | undefined;
// Answers by peer address: a client keeps calling from the same few addresses, and BlockList.check() builds a
// SocketAddress per call.
const answers = new Map<string, boolean>();
const MAX_ANSWERS = 1000;

function defaultRules(): string[] {
  const own = Object.values(os.networkInterfaces())
    .flat()
    .filter((i): i is os.NetworkInterfaceInfo => !!i)
    .map((i) => i.address);
  return ["127.0.0.0/8", "::1", ...own];
}

function buildList(rules: string[], setting = "ALLOWED_CLIENT_IPS"): net.BlockList {
  const list = new net.BlockList();
  for (const rule of rules) {
    const [address, prefix] = rule.trim().split("/");
    if (!address) continue;
    const type = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (!net.isIP(address)) throw new Error(`${setting}: not an IP address: ${rule}`);
    if (prefix !== undefined) list.addSubnet(address, Number(prefix), type);
    else list.addAddress(address, type);
  }
  return list;
}

/** IPv4 peers often arrive as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
}

export function isClientAllowed(ip: string | null | undefined): boolean {
  if (!ip) return false;
  let allowed = answers.get(ip);
  if (allowed === undefined) {
    allowed = checkAddress(ip);
    setBounded(answers, MAX_ANSWERS, ip, allowed);
  }
  return allowed;
}

function checkAddress(ip: string): boolean {
  const address = normalizeIp(ip);
  const type = net.isIPv6(address) ? "ipv6" : net.isIPv4(address) ? "ipv4" : null;
  if (!type) return false;
  cachedList ??= buildList(
    env().ALLOWED_CLIENT_IPS
      ? env()
          .ALLOWED_CLIENT_IPS!.split(",")
          .filter((s) => s.trim())
      : defaultRules(),
  );
  return cachedList.check(address, type);
}

let trusted: net.BlockList | null | undefined;

function isTrustedProxy(ip: string): boolean {
  if (trusted === undefined) {
    const rules = (env().TRUSTED_PROXIES ?? "").split(",").filter((r) => r.trim());
    trusted = rules.length ? buildList(rules, "TRUSTED_PROXIES") : null;
  }
  if (!trusted) return false;
  const type = net.isIPv6(ip) ? "ipv6" : net.isIPv4(ip) ? "ipv4" : null;
  return !!type && trusted.check(ip, type);
}

/**
 * The end client's address: the TCP peer, unless the peer is a trusted proxy; then the rightmost X-Forwarded-For
 * entry that is not a trusted proxy (entries left of it were written by the client and prove nothing). A malformed
 * entry stops the walk there: the proxy that appended it is the last one we can vouch for.
 */
export function clientAddress(peer: string | null | undefined, forwardedFor: string | null | undefined): string {
  let address = normalizeIp(peer ?? "");
  if (!forwardedFor || !isTrustedProxy(address)) return address;
  const hops = forwardedFor.split(",").map((h) => normalizeIp(h.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!net.isIP(hop)) break;
    address = hop;
    if (!isTrustedProxy(hop)) break;
  }
  return address;
}

export function requestClientAddress(req: Request): string {
  return clientAddress(req.headers.get(PEER_ADDRESS_HEADER), req.headers.get(FORWARDED_FOR_HEADER));
}
