// Readers of the mail clients' set-up documents through python3's XML parser, so the tests do not parse with our own code.
import { execFileSync } from "node:child_process";

/** python3's ElementTree (a real XML parser) reading Thunderbird's documented elements. */
export function parseAutoconfig(xml: string) {
  const script = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
assert root.tag == "clientConfig", root.tag
p = root.find("emailProvider")
def server(e):
    return {"type": e.get("type"), **{k: e.findtext(k) for k in ["hostname", "port", "socketType", "authentication", "username"]}}
print(json.dumps({
    "version": root.get("version"), "id": p.get("id"), "domain": [d.text for d in p.findall("domain")],
    "displayName": p.findtext("displayName"),
    "incoming": [server(e) for e in p.findall("incomingServer")],
    "outgoing": [server(e) for e in p.findall("outgoingServer")],
}))`;
  return JSON.parse(execFileSync("python3", ["-c", script], { input: xml, encoding: "utf8" })) as {
    version: string;
    id: string;
    domain: string[];
    displayName: string;
    incoming: Record<string, string>[];
    outgoing: Record<string, string>[];
  };
}

/** python3's ElementTree over the POX answer, with the documented namespaces (MS-OXDSCLI 2.2.4). */
export function parseAutodiscover(xml: string) {
  const script = `
import json, sys, xml.etree.ElementTree as ET
A = "{http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006}"
O = "{http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a}"
root = ET.fromstring(sys.stdin.read())
assert root.tag == A + "Autodiscover", root.tag
error = root.find(A + "Response/" + A + "Error")
if error is not None:
    print(json.dumps({"error": error.findtext(A + "ErrorCode")}))
    sys.exit(0)
account = root.find(O + "Response/" + O + "Account")
keys = ["Type", "Server", "Port", "LoginName", "SSL", "Encryption", "SPA", "AuthRequired", "DomainRequired"]
print(json.dumps({
    "user": root.findtext(O + "Response/" + O + "User/" + O + "DisplayName"),
    "type": account.findtext(O + "AccountType"), "action": account.findtext(O + "Action"),
    "protocols": [{k: p.findtext(O + k) for k in keys} for p in account.findall(O + "Protocol")],
}))`;
  return JSON.parse(execFileSync("python3", ["-c", script], { input: xml, encoding: "utf8" })) as Record<
    string,
    unknown
  >;
}
