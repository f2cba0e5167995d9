// What the postmaster's mail-status pages read (/api/panel/mail/...): the domain's DKIM record, the DNS records it
// needs with their state, and an account's latest SMS notifications. One definition for the server and the panel.

export type DnsRecordKind =
  | "mx"
  | "spf"
  | "dkim"
  | "dkim_next"
  | "dmarc"
  | "autoconfig"
  | "autodiscover"
  | "autodiscover_srv"
  | "imap_srv"
  | "pop3_srv"
  | "submission_srv"
  | "mta_sts"
  | "mta_sts_host"
  | "tls_rpt";

export type DnsRecordType = "MX" | "TXT" | "CNAME" | "SRV";

export interface RequiredDnsRecord {
  kind: DnsRecordKind;
  type: DnsRecordType;
  /** The record's owner name, fully qualified, without the trailing dot. */
  name: string;
  /** Its value as a DNS provider's form takes it: MX "10 host", SRV "priority weight port host", TXT the text. */
  value: string;
}

export type DnsState = "present" | "missing" | "different" | "error";

export interface CheckedDnsRecord extends RequiredDnsRecord {
  state: DnsState;
  /** What DNS answered for the name and type (empty when missing), or the resolver's error. */
  found: string[];
}

export interface DomainDnsReport {
  domain: string;
  /** Every record present. */
  ok: boolean;
  records: CheckedDnsRecord[];
}

export interface DkimStatus {
  selector: string;
  name: string;
  value: string;
  dns: "published" | "different" | "missing" | "error";
  dns_detail: string;
}

export interface SmsNotification {
  created_at: string;
  number: 1 | 2;
  channel: string;
  target: string;
  /** pending, sent, failed or skipped. */
  status: string;
  attempts: number;
  last_error: string;
  sent_at: string;
}
