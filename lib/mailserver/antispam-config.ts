// The anti-spam part of `mailserver config` (docs/mail-server.md, "Anti-spam"): Rspamd's local.d files, the Postfix
// lines that put Rspamd in as a milter and the policy service (`mailserver policy`) at RCPT, and the Dovecot lines
// that run each account's spam script (view mail_sieve_scripts, name "spam") before its own scripts.
//
// Rspamd scores each message once; it never refuses, greylists or rewrites anything itself (all its actions are
// off). Its milter writes the score into two headers, replacing any a sender put there; each account's Sieve
// script compares it with that account's spam_hits and files or tags. Everything decided per recipient during
// SMTP (black and white lists, SPF, RBL, greylisting) is the policy service's.

import { SENDER_VERIFIED_HEADER } from "@/db/sieve-scripts-view";

export { SENDER_VERIFIED_HEADER };

export interface AntispamOptions {
  /** Postfix's smtpd_milters entry for Rspamd's proxy worker in milter mode. */
  rspamdMilter: string;
  /**
   * Postfix's non_smtpd_milters entry: Rspamd's second proxy worker (rspamd.conf.local), which only DKIM-signs mail
   * composed on this host (LOCAL_SIGN_SYMBOL): Dovecot's vacation replies, the list service's notices.
   */
  rspamdSignMilter: string;
  /** Rspamd's controller (for `mailserver check`): host:port. */
  rspamdController: string;
  /** Postfix's check_policy_service target: where `mailserver policy` listens. */
  policyService: string;
  /** Redis for Rspamd: host:port. */
  redis: string;
}

export const DEFAULT_ANTISPAM_OPTIONS: AntispamOptions = {
  rspamdMilter: "inet:127.0.0.1:11332",
  rspamdSignMilter: "inet:127.0.0.1:11339",
  rspamdController: "127.0.0.1:11334",
  policyService: "inet:127.0.0.1:10040",
  redis: "127.0.0.1:6379",
};

/** The header Sieve compares (score in hundredths, never negative: i;ascii-numeric reads digits only). */
export const SCORE_HEADER = "X-Mailadmin-Spam-Centiscore";
/** The score as people read it. */
export const SCORE_HEADER_READABLE = "X-Spam-Score";

/**
 * The milter_headers routine writing the score. It removes every copy the message arrived with first, so a
 * sender cannot pick its own score.
 */
const SCORE_ROUTINE = `return function(task, common_meta)
  local score = task:get_metric_score('default')[1] or 0
  local centi = math.floor(score * 100 + 0.5)
  if centi < 0 then centi = 0 end
  return nil,
    {['${SCORE_HEADER}'] = tostring(centi), ['${SCORE_HEADER_READABLE}'] = string.format('%.2f', score)},
    {['${SCORE_HEADER}'] = 0, ['${SCORE_HEADER_READABLE}'] = 0},
    {}
end`;

/** The header naming the From address when it is authenticated (read by the list service, docs/lists.md). */
export const POSTER_HEADER = "X-Mailadmin-Poster";

/**
 * The milter_headers routine writing POSTER_HEADER: the message's single From address when a DMARC-aligned check
 * passed for it (DMARC_POLICY_ALLOW) or the client logged in (SMTP AUTH) as that very address; no header
 * otherwise. Every copy the message arrived with is removed first, so a sender cannot vouch for itself.
 */
const POSTER_ROUTINE = `return function(task, common_meta)
  local from = task:get_from('mime') or {}
  local addr = (#from == 1 and from[1].addr or ''):lower()
  local user = (task:get_user() or ''):lower()
  local add = {}
  if addr ~= '' and (user == addr or task:has_symbol('DMARC_POLICY_ALLOW')) then
    add['${POSTER_HEADER}'] = addr
  end
  return nil, add, {['${POSTER_HEADER}'] = 0}, {}
end`;

/**
 * The milter_headers routine writing SENDER_VERIFIED_HEADER ("1", read by the autoresponder's Sieve script, view
 * mail_sieve_scripts): the client logged in (SMTP AUTH; smtpd_sender_login_maps lets a login send only as its own
 * addresses), or the envelope sender's domain passed SPF for the client (R_SPF_ALLOW). No header otherwise, and every
 * copy the message arrived with is removed first, so a sender cannot vouch for itself. DMARC_POLICY_ALLOW is not
 * enough: it can pass on a DKIM signature for the header From alone, which says nothing about the envelope sender the
 * reply goes to (docs/mail-server.md, Autoresponder).
 */
const SENDER_VERIFIED_ROUTINE = `return function(task, common_meta)
  local add = {}
  if (task:get_user() or '') ~= '' or task:has_symbol('R_SPF_ALLOW') then
    add['${SENDER_VERIFIED_HEADER}'] = '1'
  end
  return nil, add, {['${SENDER_VERIFIED_HEADER}'] = 0}, {}
end`;

/**
 * What every header this host's own services trust begins with. Postfix removes any such header a message arrives
 * with (header_checks, `postfix/inbound-header-checks`), so one a sender wrote never counts, even when Rspamd does
 * not answer and the mail is accepted unfiltered.
 */
export const INTERNAL_HEADER_PREFIX = "X-Mailadmin-";

/** The headers Rspamd adds for this host's own use (milter_headers.conf), removed from mail leaving over SMTP. */
export const INTERNAL_HEADERS = [
  "X-Spamd-Result",
  SCORE_HEADER,
  SCORE_HEADER_READABLE,
  POSTER_HEADER,
  SENDER_VERIFIED_HEADER,
];

/**
 * The Rspamd settings (local.d/settings.conf) of the signing worker's tasks: only LOCAL_SIGN_SYMBOL runs. Every check,
 * score, header, the end-of-DATA question and Rspamd's own dkim_signing are off there: the rule decides what was
 * composed here, and sendmail's mail reaches it with the client 127.0.0.1, which says nothing.
 */
export const LOCAL_SIGN_SETTINGS = "mailadmin_local_sign";
/** The signing worker's one rule (rspamd.lua). */
export const LOCAL_SIGN_SYMBOL = "MAILADMIN_LOCAL_SIGN";

/**
 * Mail Postfix takes other than over SMTP (sendmail: Dovecot's vacation replies and Sieve redirects, the list
 * service's notices) reaches Rspamd through the signing worker, whose tasks carry LOCAL_SIGN_SETTINGS. A message
 * composed here shows the milter no Received header but pickup's own (`by <host> (Postfix, from userid <n>)`; smtpd's
 * is not shown), and is signed with the key of its single From address's domain: the selector map and key files of
 * dkim_signing.conf, which hold hosted domains only. A message relayed on (a Sieve redirect) carries the Received
 * header of its arrival here and is left as it is: it keeps its own signature, and ours would vouch for whatever
 * came in. Loopback or local addresses decide nothing, so the sandbox signs the same.
 */
const LOCAL_SIGN_LUA = `local lua_maps = require "lua_maps"
local lua_util = require "lua_util"
local dkim_opts = rspamd_config:get_all_opt('dkim_signing') or {}
local dkim_selectors = dkim_opts.selector_map and
  lua_maps.map_add_from_ucl(dkim_opts.selector_map, 'map', 'DKIM selectors (mail composed here)')

rspamd_config:register_symbol({
  name = '${LOCAL_SIGN_SYMBOL}',
  score = 0.0,
  group = 'mailadmin',
  flags = 'empty,nostat,ignore_passthrough',
  allowed_ids = '${LOCAL_SIGN_SETTINGS}',
  callback = function(task)
    local received = task:get_header_full('Received') or {}
    if #received > 1 then return end
    if #received == 1 and not (received[1].value or ''):match('^%s*by %S+ %(Postfix, from userid %d+%)') then
      return
    end
    local from = task:get_from('mime') or {}
    if #from ~= 1 or (from[1].domain or '') == '' or not dkim_selectors or not dkim_opts.path then return end
    local domain = from[1].domain:lower()
    local selector = dkim_selectors:get_key(domain)
    if not selector then return end
    local key = lua_util.template(dkim_opts.path, {domain = domain, selector = selector})
    local signed = rspamd_plugins.dkim.sign(task, {domain = domain, selector = selector, key = key})
    if signed then
      task:insert_result('${LOCAL_SIGN_SYMBOL}', 1.0, string.format('%s:s=%s', domain, selector))
    end
  end,
})`;

/** The policy request Rspamd sends at the end of DATA (answered by lib/mailserver/policy/spam-policy.ts). */
export const END_OF_DATA_REQUEST = "mailadmin_end_of_data";

/** Bytes Postfix, Rspamd and Dovecot add to a message before it is stored (Received, X-Spamd-Result, Return-Path...). */
export const STORED_OVERHEAD = 4096;

/**
 * A postfilter asking the policy service (Postfix's policy protocol over TCP, one request with every accepted
 * envelope recipient, the message's size and its score) whether a mailbox is too full for it or the list service would refuse
 * it; a refusal becomes Rspamd's reject, which its milter turns into a 5xx at the end of DATA, so the sender is told
 * while connected instead of bounced. A postfilter runs after DMARC, whose result decides whether the From counts.
 * No answer (the service down, a timeout) refuses nothing, but for a signed-in sender, whose header From only this
 * question checks: its mail is refused for now (soft reject, 4xx) instead.
 */
function listAdmissionLua(policyService: string): string {
  const m = /^(?:inet:)?\[?([^\]]*?)\]?:(\d+)$/.exec(policyService);
  const host = m?.[1] || "127.0.0.1";
  const port = Number(m?.[2] ?? 10040);
  return `-- Generated by \`mailserver config\` (docs/mail-server.md, "Refusals during the SMTP session"). Loaded by Rspamd
-- from local.d/rspamd.lua.
local rspamd_tcp = require "rspamd_tcp"

-- One line of the request, cut short: a field over the policy service's request limit would drop the connection and
-- let the message through unchecked.
local function clean(s, max)
  return ((tostring(s or '')):gsub('[%c]', ' ')):sub(1, max or 512)
end

rspamd_config:register_symbol({
  name = 'MAILADMIN_END_OF_DATA',
  type = 'postfilter',
  flags = 'empty,nostat',
  callback = function(task)
    local rcpts = task:get_recipients('smtp') or {}
    if #rcpts == 0 then return end
    local list = {}
    for _, r in ipairs(rcpts) do list[#list + 1] = clean(r.addr):lower() end
    local from = task:get_from('mime') or {}
    local addr = (#from == 1 and from[1].addr or ''):lower()
    local user = (task:get_user() or ''):lower()
    local verified = addr ~= '' and (user == addr or task:has_symbol('DMARC_POLICY_ALLOW'))
    local env = task:get_from('smtp') or {}
    local ids = {}
    for i, h in ipairs(task:get_header_full('List-Id') or {}) do
      if i <= 10 then ids[#ids + 1] = clean(h.decoded or h.value) end
    end
    -- The score as the Sieve scripts compare it (SCORE_ROUTINE): a forward-only account keeps what it files as spam.
    -- The header block's size: the list service reads at most LIST_MAX_HEAD_BYTES of it.
    local raw = task:get_raw_headers()
    local head = 0
    if raw then head = (type(raw) == 'string') and #raw or raw:len() end
    local centiscore = math.floor((task:get_metric_score('default')[1] or 0) * 100 + 0.5)
    if centiscore < 0 then centiscore = 0 end
    local request = table.concat({
      'request=${END_OF_DATA_REQUEST}',
      'size=' .. tostring(task:get_size() + ${STORED_OVERHEAD}),
      'header_bytes=' .. tostring(head),
      'centiscore=' .. tostring(centiscore),
      'recipients=' .. table.concat(list, ','),
      'sender=' .. clean(env[1] and env[1].addr or ''),
      'from=' .. clean(addr),
      'user=' .. clean(user),
      'verified=' .. (verified and '1' or '0'),
      'subject=' .. clean(task:get_header('Subject'), 1000),
      'auto_submitted=' .. clean(task:get_header('Auto-Submitted')),
      'content_type=' .. clean(task:get_header('Content-Type')),
      'list_ids=' .. table.concat(ids, ' '),
    }, '\\n') .. '\\n\\n'
    rspamd_tcp.request({
      task = task,
      host = '${host}',
      port = ${port},
      timeout = 10,
      data = request,
      stop_pattern = '\\n\\n',
      callback = function(err, data)
        if err or not data then
          -- A signed-in sender's From is checked only here (its DKIM signature follows): without an answer its mail
          -- waits (4xx, the mail program retries) rather than leaving unchecked. Other mail passes (fail open).
          if user ~= '' then
            task:set_pre_result('soft reject', 'The From check did not answer; try again later', 'mailadmin')
          end
          return
        end
        local text = tostring(data):match('^action=REJECT%s+(.-)%s*$')
        if text then
          task:set_pre_result('reject', (text:gsub('^%d%.%d+%.%d+%s+', '')), 'mailadmin')
        elseif user ~= '' and tostring(data):match('^action=DEFER') then
          -- The service answered but could not check (its database away): the same wait as without an answer.
          task:set_pre_result('soft reject', 'The From check did not answer; try again later', 'mailadmin')
        end
      end,
    })
  end,
})

-- Mail composed on this host, through the signing worker (rspamd.conf.local): signed, nothing else.
${LOCAL_SIGN_LUA}
`;
}

export function rspamdLocalFiles(o: AntispamOptions): Record<string, string> {
  const header =
    "# Generated by `mailserver config` (docs/mail-server.md, Anti-spam). Link into /etc/rspamd/local.d/ (docs/deploy.md, step 5).\n";
  return {
    "rspamd/local.d/redis.conf": `${header}servers = "${o.redis}";\n`,
    "rspamd/local.d/actions.conf": `${header}# Rspamd only scores: each account's Sieve script applies that account's threshold (spam_hits) and rule.
reject = null;
add_header = null;
rewrite_subject = null;
greylist = null;
`,
    // Per-recipient greylisting is the policy service's; Rspamd's own would act per message.
    "rspamd/local.d/greylist.conf": `${header}enabled = false;\n`,
    "rspamd/local.d/milter_headers.conf": `${header}use = ["x-spamd-result", "mailadmin-score", "mailadmin-poster", "mailadmin-sender-verified"];
# The score is needed for every message, also from local or authenticated senders.
skip_local = false;
skip_authenticated = false;
custom {
  mailadmin-score = <<EOD
${SCORE_ROUTINE}
EOD;
  mailadmin-poster = <<EOD
${POSTER_ROUTINE}
EOD;
  mailadmin-sender-verified = <<EOD
${SENDER_VERIFIED_ROUTINE}
EOD;
}
`,
    "rspamd/local.d/rspamd.lua": listAdmissionLua(o.policyService),
    "rspamd/local.d/settings.conf": `${header}# The signing worker's tasks (rspamd.conf.local): DKIM signing alone, for mail composed on this host.
${LOCAL_SIGN_SETTINGS} {
  id = "${LOCAL_SIGN_SETTINGS}";
  apply {
    symbols_enabled = ["${LOCAL_SIGN_SYMBOL}"];
    symbols_disabled = ["MILTER_HEADERS"];
  }
}
`,
    // A worker of its own: its upstream's static settings id is what tells Rspamd that Postfix's non_smtpd_milters
    // sent the message (Postfix sends the same connection and macros for sendmail mail as for a local SMTP client).
    "rspamd/rspamd.conf.local": `# Generated by \`mailserver config\` (docs/mail-server.md, DKIM). Link to /etc/rspamd/rspamd.conf.local.
# Rspamd's second milter worker, for mail Postfix takes other than over SMTP (non_smtpd_milters): it only DKIM-signs
# what was composed on this host (local.d/settings.conf, local.d/rspamd.lua).
worker "rspamd_proxy" {
  bind_socket = "${o.rspamdSignMilter.replace(/^inet:/, "")}";
  milter = yes;
  timeout = 120s;
  count = 1;
  upstream "local" {
    default = yes;
    self_scan = yes;
    settings_id = "${LOCAL_SIGN_SETTINGS}";
  }
}
`,
    "rspamd/local.d/worker-proxy.inc": `${header}milter = yes;
timeout = 120s;
upstream "local" {
  default = yes;
  self_scan = yes;
}
`,
  };
}

/** Lines for Postfix's main.cf. */
export function postfixAntispamLines(o: AntispamOptions): string[] {
  const quota = `check_policy_service { ${o.policyService}, policy_context=quota, timeout=30s, default_action=DUNNO }`;
  return [
    "# First, for every client (local and logged-in senders too): the recipient's black list (its white list",
    "# beats it), then over quota: the policy service asks Dovecot's quota-status for each mailbox the recipient is",
    "# stored in (an alias's account; not a forward-only account).",
    "# Anti-spam (docs/mail-server.md): the policy service decides per recipient at RCPT (black and white lists,",
    "# SPF, RBL, greylisting); Rspamd scores the message as a milter. Both fail open: when one does not answer,",
    "# mail is accepted unfiltered rather than lost (`mailserver check` reports them). The host's own clients",
    "# (mynetworks) and logged-in users are not checked for SPF, RBL and greylisting. An unknown recipient is refused",
    "# before those checks: greylisting it first answered 450, stored a triplet, and refused it only on the retry.",
    `smtpd_recipient_restrictions = ${quota}, permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination, reject_unlisted_recipient, check_policy_service { ${o.policyService}, timeout=30s, default_action=DUNNO }`,
    "# Asked again at the end of DATA, for signed-in senders only: a session that logged in before its account's",
    '# password changed sends nothing more (docs/mail-server.md, "Open sessions").',
    `smtpd_end_of_data_restrictions = ${quota}`,
    `smtpd_milters = ${o.rspamdMilter}`,
    "# Mail taken other than over SMTP (sendmail: Dovecot's vacation replies and Sieve redirects, the list service's",
    "# notices) passes Rspamd's signing worker, which DKIM-signs what was composed here and does nothing else.",
    `non_smtpd_milters = ${o.rspamdSignMilter}`,
    "milter_default_action = accept",
    "milter_protocol = 6",
    "milter_mail_macros = i {mail_addr} {client_addr} {client_name} {auth_authen}",
  ];
}

/** Lines for Dovecot's plugin section; `dict` is the dict that reads the Sieve scripts (the account's own too). */
export const dovecotSieveBefore = (dict: string) =>
  [
    "  # Each account's spam filter (black list, threshold, rule, white list), generated by the view mail_sieve_scripts",
    "  # from the account and its domain; runs before the account's own scripts. No bindir: compiled at every",
    "  # delivery, so a change applies to the next message.",
    `  sieve_before = dict:proxy::${dict};name=spam`,
    "  sieve_extensions = +editheader",
  ].join("\n");
