// IP addresses as the services compare them. An IPv4 client reaching a dual-stack socket is seen as IPv4-mapped
// IPv6, written ::ffff:1.2.3.4 or ::ffff:0102:0304 (the same address): both must count as 1.2.3.4, or one client
// gets a second sign-in budget and misses the allow-list and the trusted proxies written in IPv4.
import net from "node:net";

/** An IPv6 address's eight 16-bit groups (a zone id dropped, a dotted IPv4 tail read as two), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  const ip = address.split("%")[0]!;
  if (!net.isIPv6(ip)) return undefined;
  const parse = (part: string | undefined) =>
    part
      ? part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split(".").map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const at = ip.indexOf("::");
  if (at < 0) return parse(ip);
  const left = parse(ip.slice(0, at));
  const right = parse(ip.slice(at + 2));
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The address to compare: an IPv4-mapped IPv6 address (dotted or hex) as its IPv4 address, any other as given. */
export function normalizeIp(ip: string): string {
  if (!ip.includes(":")) return ip;
  const g = ipv6Groups(ip);
  if (!g || g[5] !== 0xffff || g.slice(0, 5).some((x) => x !== 0)) return ip;
  return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join(".");
}
