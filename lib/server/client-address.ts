import "server-only";
// The client address rule of contract §1: which TCP peers may call /api/v1.
import net from "node:net";
import os from "node:os";
import { setBounded } from "./bounded-map";
import { env } from "./env";

/** Header that the custom server (lib/runtime/server.ts) overwrites with the socket's peer address. */
export const PEER_ADDRESS_HEADER = "x-mailadmin-peer-address";

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

function buildList(rules: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const rule of rules) {
    const [address, prefix] = rule.trim().split("/");
    if (!address) continue;
    const type = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (!net.isIP(address)) throw new Error(`ALLOWED_CLIENT_IPS: not an IP address: ${rule}`);
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
    env().ALLOWED_CLIENT_IPS ? env().ALLOWED_CLIENT_IPS!.split(",").filter((s) => s.trim()) : defaultRules(),
  );
  return cachedList.check(address, type);
}
