// IPv4-mapped IPv6 client addresses compared as IPv4 (lib/server/http/ip-address.ts), in both written forms, by the
// allow-list, the trusted proxies, the address the throttle and last_auth_ip record, and the list pages' budget.
// Before, only the dotted form (::ffff:1.2.3.4) was mapped: ::ffff:0102:0304 missed the allow-list and the trusted
// proxies written in IPv4 and had a sign-in budget of its own.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ipv6Groups, normalizeIp } from "./ip-address";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

beforeAll(() => {
  // Read once per process at first use (lib/server/env.ts): set before anything reads it.
  Object.assign(process.env, { ALLOWED_CLIENT_IPS: "10.1.0.0/16,::ffff:192.0.2.7", TRUSTED_PROXIES: "10.9.9.9" });
});

describe("normalizeIp", () => {
  it("maps the dotted and the hex IPv4-mapped forms to IPv4", () => {
    expect(normalizeIp("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(normalizeIp("::ffff:0102:0304")).toBe("1.2.3.4");
    expect(normalizeIp("::ffff:102:304")).toBe("1.2.3.4");
    expect(normalizeIp("::FFFF:C000:0201")).toBe("192.0.2.1");
    expect(normalizeIp("0:0:0:0:0:ffff:c0a8:0101")).toBe("192.168.1.1");
    expect(normalizeIp("0:0:0:0:0:ffff:192.168.1.1")).toBe("192.168.1.1");
    expect(normalizeIp("::ffff:0:0")).toBe("0.0.0.0");
    expect(normalizeIp("::ffff:ffff:ffff")).toBe("255.255.255.255");
  });

  it("leaves IPv4, other IPv6 addresses and anything else as given", () => {
    for (const ip of [
      "1.2.3.4",
      "::1",
      "::",
      "2001:db8::ffff:102:304",
      "::fffe:102:304",
      "64:ff9b::1.2.3.4",
      "::1.2.3.4",
      "1::ffff:102:304",
      "fe80::1%eth0",
      "",
      "not an address",
      "::ffff:1.2.3.256",
    ])
      expect(normalizeIp(ip)).toBe(ip);
  });
});

describe("ipv6Groups", () => {
  it("reads each form as eight groups", () => {
    expect(ipv6Groups("2001:db8:1:2:3:4:5:6")).toEqual([0x2001, 0xdb8, 1, 2, 3, 4, 5, 6]);
    expect(ipv6Groups("2001:db8::1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups("fe80::1%eth0")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(ipv6Groups("1.2.3.4")).toBeUndefined();
    expect(ipv6Groups("1:2")).toBeUndefined();
  });
});

describe("where addresses are compared", () => {
  it("the allow-list admits an IPv4 client in every form, and an IPv4-mapped rule matches it as IPv4", async () => {
    const { isClientAllowed } = await import("./client-address");
    for (const ip of ["10.1.2.3", "::ffff:10.1.2.3", "::ffff:0a01:0203", "192.0.2.7", "::ffff:c000:0207"])
      expect(isClientAllowed(ip), ip).toBe(true);
    for (const ip of ["10.2.0.1", "::ffff:0a02:0001", "::0a01:0203"]) expect(isClientAllowed(ip), ip).toBe(false);
  });

  it("the client address is IPv4 in every form, and a trusted proxy is recognised in every form", async () => {
    const { clientAddress } = await import("./client-address");
    expect(clientAddress("::ffff:0102:0304", null)).toBe("1.2.3.4");
    expect(clientAddress("::ffff:1.2.3.4", null)).toBe("1.2.3.4");
    for (const proxy of ["10.9.9.9", "::ffff:10.9.9.9", "::ffff:0a09:0909"]) {
      expect(clientAddress(proxy, "203.0.113.5"), proxy).toBe("203.0.113.5");
      expect(clientAddress(proxy, "::ffff:cb00:7105"), proxy).toBe("203.0.113.5");
      // A proxy chain: the trusted proxy's own hop, in the hex form, is skipped.
      expect(clientAddress(proxy, "203.0.113.6, ::ffff:0a09:0909"), proxy).toBe("203.0.113.6");
    }
    // Not a trusted proxy: its header is ignored.
    expect(clientAddress("::ffff:0a09:0908", "203.0.113.5")).toBe("10.9.9.8");
  });

  it("the list pages count an IPv4 client by its address and an IPv6 one by its /64", async () => {
    const { requestBudgetClient } = await import("@/lib/lists/pages");
    expect(requestBudgetClient("192.0.2.1")).toBe("192.0.2.1");
    expect(requestBudgetClient("2001:db8:1:2:ffff:ffff:ffff:9")).toBe("2001:db8:1:2::/64");
    expect(requestBudgetClient("2001:0db8::1")).toBe("2001:db8:0:0::/64");
    expect(requestBudgetClient("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});
