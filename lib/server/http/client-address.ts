import "server-only";
// The client address rule of contract §1: which TCP peers may call /api/v1 (always the TCP peer: a forwarded
// address never widens it). And the client address that throttling, sessions and last_auth_ip record: behind a
// proxy named in TRUSTED_PROXIES, the rightmost X-Forwarded-For entry that is not itself a trusted proxy.
import net from "node:net";
import os from "node:os";
import { setBounded } from "../store/bounded-map";
import { FORWARDED_FOR_HEADER, PEER_ADDRESS_HEADER } from "@/lib/runtime/edge.mjs";
import { env } from "../env";
import { normalizeIp } from "./ip-address";

// Written by lib/runtime/server.mjs from the socket and the request as it arrived; read here.
export { FORWARDED_FOR_HEADER, PEER_ADDRESS_HEADER };
export { normalizeIp };

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
    const [written, bits] = rule.trim().split("/");
    if (!written) continue;
    if (!net.isIP(written)) throw new Error(`${setting}: not an IP address: ${rule}`);
    // Addresses are checked normalised (an IPv4-mapped one as IPv4), so a rule written IPv4-mapped is read as IPv4.
    const address = normalizeIp(written);
    const mapped = address !== written;
    const prefix = bits === undefined ? undefined : mapped ? Math.max(0, Number(bits) - 96) : Number(bits);
    const type = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (prefix !== undefined) list.addSubnet(address, prefix, type);
    else list.addAddress(address, type);
  }
  return list;
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
