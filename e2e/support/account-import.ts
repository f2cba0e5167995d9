// `account import` against whichever engine the process was configured for (DATABASE_URL or DATABASE_PATH, set
// before the services are imported): hashes from another mail server kept for mail, each refusal named on its line,
// the limits of the API's POST, and the first panel sign-in that makes the account's API hash. Used by
// lib/cli/account-import*.test.ts.
import { expect } from "vitest";

/** A Dovecot-made hash of `password` (doveadm pw -s SHA512-CRYPT gave this one). */
const OLD_HASH =
  "{SHA512-CRYPT}$6$nPVzHVCdX2mDiEC1$aOHoQDFL2CMUqWtCIcFsci9g69WkHSE4JHV/ciGPellpDeRgwXiOKIC0U31M9cIEeSsR0pjNF8/pLEJLn2Xms.";
const OLD_PASSWORD = "Old-pass1";
/** postfixadmin's md5crypt of the same password, stored without a scheme (doveadm pw -s MD5-CRYPT). */
const OLD_MD5 = "$1$ePfo6Hjz$HCVQDseuVjvEBb2vVRlbR1";

export async function runAccountImport(file: string): Promise<void> {
  const fs = await import("node:fs");
  const { getReadyDb } = await import("@/db/client");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { accountRecord, findAccount, getAccountOrThrow } = await import("@/lib/server/resources/accounts");
  const { getDomainOrThrow } = await import("@/lib/server/resources/domains");
  const { authenticate } = await import("@/lib/server/caller/auth");
  const { panelLogin, readCredentials } = await import("@/lib/server/caller/panel-login");
  const { sha1Hex, verifyDigest, API_HASH_AT_FIRST_SIGN_IN } = await import("@/lib/server/caller/password");
  const { verifyImportedHash } = await import("@/lib/mailserver/imported-hashes");
  const { listAudit } = await import("@/lib/server/resources/audit");
  const { runCommand } = await import("@/lib/cli/commands");
  const { FailedWithReport } = await import("@/lib/cli/args");
  const db = await getReadyDb();
  // Room for the postmaster (1024 MB) and four more accounts, 5,000 MB of capacity.
  await addDomain(db, "old.example", "Admin-pass1", { accountLimit: 5, capacityLimit: 5000 });

  const lines = [
    "# exported from postfixadmin",
    JSON.stringify({
      email: "jan@old.example",
      password_hash: OLD_HASH,
      description: "Jan Nowak",
      capacity: 1000,
      aliases: ["jn@old.example"],
    }),
    JSON.stringify({ email: "ewa@old.example", password_hash: OLD_MD5, forwards: ["ewa@elsewhere.example"] }),
    JSON.stringify({ email: "new@old.example", capacity: 500 }),
    // Its alias is jan's already: the account is not created either (its own savepoint).
    JSON.stringify({ email: "own@old.example", password: "Own-pass1", capacity: 500, aliases: ["jn@old.example"] }),
    JSON.stringify({ email: "plain@old.example", password_hash: "{PLAIN-MD5}5f4dcc3b5aa765d61d8327deb882cf99" }),
    JSON.stringify({ email: "big@old.example", password_hash: OLD_HASH, capacity: 2000 }),
    JSON.stringify({ email: "postmaster@old.example", password_hash: OLD_HASH }),
    JSON.stringify({ email: "colour@old.example", password_hash: OLD_HASH, colour: "blue" }),
    JSON.stringify({ email: "x@nowhere.example", password_hash: OLD_HASH }),
    "not json",
    JSON.stringify({ email: "last@old.example", password_hash: OLD_HASH, capacity: 100 }),
    JSON.stringify({ email: "over@old.example", password_hash: OLD_HASH }),
  ];
  fs.writeFileSync(file, lines.join("\n"));
  const run = async () => {
    try {
      return { output: await runCommand(db, ["account", "import", file, "--batch", "4"]), error: "" };
    } catch (err) {
      if (!(err instanceof FailedWithReport)) throw err;
      return { output: err.output, error: err.message };
    }
  };
  const first = await run();
  expect(first.error).toBe("7 of 12 lines failed");
  const out = first.output.split("\n");
  expect(out).toEqual([
    "created\tjan@old.example",
    "created\tewa@old.example",
    expect.stringMatching(/^created\tnew@old\.example\tpassword [A-Za-z2-9]{12}$/),
    expect.stringMatching(/^failed\town@old\.example\tline 5: .*\[409\.1\]$/),
    expect.stringMatching(
      /^failed\tplain@old\.example\tline 6: password_hash: the scheme \{PLAIN-MD5\} is not accepted/,
    ),
    // 1024 + 1000 + 1024 + 500 of 5000 MB are taken: 2000 more do not fit.
    expect.stringMatching(/^failed\tbig@old\.example\tline 7: .*\(capacity\) \[500\.\d+\]$/),
    "exists\tpostmaster@old.example",
    expect.stringMatching(/^failed\tcolour@old\.example\tline 9: .*\(colour\) \[500\.115\]$/),
    expect.stringMatching(/^failed\tx@nowhere\.example\tline 10: .*\(domain\) \[404\.\d+\]$/),
    "failed\tnot json\tline 11: not a JSON object",
    "created\tlast@old.example",
    // The domain's limit of 5 accounts is reached.
    expect.stringMatching(/^failed\tover@old\.example\tline 13: .*\(name\) \[500\.\d+\]$/),
    "4 created, 1 already there, 7 failed",
  ]);

  const domain = await getDomainOrThrow(db, "old.example");
  expect([domain.accountCount, domain.capacitySum]).toEqual([5, 1024 + 1000 + 1024 + 500 + 100]);
  const jan = await getAccountOrThrow(db, domain, "jan");
  // The old hash is Dovecot's as it was; no API hash yet; the fields as given.
  expect([jan.mailPasswordHash, jan.passwordHash, jan.description]).toEqual([
    OLD_HASH,
    API_HASH_AT_FIRST_SIGN_IN,
    "Jan Nowak",
  ]);
  expect((await getAccountOrThrow(db, domain, "ewa")).mailPasswordHash).toBe(`{MD5-CRYPT}${OLD_MD5}`);
  expect((await getAccountOrThrow(db, domain, "ewa")).forwards).toEqual(["ewa@elsewhere.example"]);
  const generated = /password (\S+)$/.exec(out[2]!)![1]!;
  const fresh = await getAccountOrThrow(db, domain, "new");
  expect(fresh.mailPasswordHash).toMatch(/^\{SHA512-CRYPT\}\$6\$/);
  expect(await verifyImportedHash(generated, fresh.mailPasswordHash)).toBe(true);
  // One audit entry for the batch's accounts, by the CLI.
  const audit = await listAudit(db, { domain: "old.example", search: "create" });
  expect(audit.entries.find((e) => e.names.includes("jan"))?.names).toEqual(["jan", "ewa", "new"]);
  expect((await accountRecord(db, domain, jan)).aliases).toEqual(["jn@old.example"]);
  expect(await findAccount(db, domain, "own")).toBeUndefined();

  // /api/v1 (Basic: the digest only) refuses an imported account as a wrong password, even with the right one.
  const digest = sha1Hex(OLD_PASSWORD);
  await expect(authenticate(db, { email: "jan@old.example", digest }, "127.0.0.1")).rejects.toMatchObject({
    key: "badCredentials",
  });
  // The panel's sign-in with a wrong password, or a password that is not the digest's, changes nothing.
  for (const password of ["Wrong-pass1", OLD_PASSWORD]) {
    const creds = { email: "jan@old.example", digest: sha1Hex("Wrong-pass1"), password };
    await expect(panelLogin(db, creds, "127.0.0.1", null)).rejects.toMatchObject({ key: "badCredentials" });
  }
  expect((await getAccountOrThrow(db, domain, "jan")).passwordHash).toBe(API_HASH_AT_FIRST_SIGN_IN);
  // The first panel sign-in with the old password (the body the login form posts): the account's own hashes are
  // made from it.
  const body = { email: "Jan@old.example", digest, password: OLD_PASSWORD };
  const principal = await panelLogin(db, readCredentials(body), "127.0.0.1", null);
  expect(principal.account.email).toBe("jan@old.example");
  const upgraded = await getAccountOrThrow(db, domain, "jan");
  expect(verifyDigest(digest, upgraded.passwordHash)).toBe(true);
  expect(upgraded.mailPasswordHash).toMatch(/^\{SHA512-CRYPT\}\$6\$/);
  expect(upgraded.mailPasswordHash).not.toBe(OLD_HASH);
  expect(await verifyImportedHash(OLD_PASSWORD, upgraded.mailPasswordHash)).toBe(true);
  // From then on /api/v1 takes the digest alone.
  expect((await authenticate(db, { email: "jan@old.example", digest }, "127.0.0.1")).account.name).toBe("jan");
  // The postfixadmin md5crypt account too.
  await panelLogin(db, { email: "ewa@old.example", digest, password: OLD_PASSWORD }, "127.0.0.1", null);
  expect((await getAccountOrThrow(db, domain, "ewa")).mailPasswordHash).toMatch(/^\{SHA512-CRYPT\}/);

  // Run again: what was created is reported as there, and nothing of it changes (jan keeps its new hashes).
  const second = await run();
  expect(second.output.split("\n").filter((l) => l.startsWith("exists")).length).toBe(5);
  expect(second.output).toMatch(/^0 created, 5 already there, 7 failed$/m);
  expect((await getAccountOrThrow(db, domain, "jan")).passwordHash).toBe(upgraded.passwordHash);

  // In the file's order whatever the batch: an alias given on an earlier line keeps its name from a later account,
  // though accounts with aliases are written after the others of their batch.
  await addDomain(db, "two.example", "Admin-pass1", { accountLimit: 5, capacityLimit: 5000 });
  fs.writeFileSync(
    file,
    [
      JSON.stringify({ email: "v2@two.example", password: "Vee-pass12", aliases: ["v2b@two.example"] }),
      JSON.stringify({ email: "v2b@two.example", password: "Vee-pass12" }),
      // A retype is taken as POST takes it: equal to the password, or refused naming password_retype.
      JSON.stringify({ email: "w1@two.example", password: "Haslo-123", password_retype: "Haslo-123" }),
      JSON.stringify({ email: "w2@two.example", password: "Haslo-123", password_retype: "Haslo-124" }),
      JSON.stringify({ email: "w3@two.example", password_hash: OLD_HASH, password_retype: "Haslo-123" }),
    ].join("\n"),
  );
  const ordered = await run();
  expect(ordered.output.split("\n")).toEqual([
    "created\tv2@two.example",
    expect.stringMatching(/^failed\tv2b@two\.example\tline 2: .*\(name\) \[409\.1\]$/),
    "created\tw1@two.example",
    expect.stringMatching(/^failed\tw2@two\.example\tline 4: .*\(password_retype\) \[500\.305\]$/),
    expect.stringMatching(/^failed\tw3@two\.example\tline 5: .*\(password_retype\) \[500\.305\]$/),
    "2 created, 0 already there, 3 failed",
  ]);
}

/**
 * `account import` reads its file as it goes: the first batch is written and printed while the file's writer still
 * holds the rest back (a FIFO fed by a shell that waits for that line). Read whole, the import would wait for the
 * writer's end, and the writer gives up after 10 s with exit status 3.
 */
export async function runStreamingImport(dir: string): Promise<void> {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const { spawn, spawnSync } = await import("node:child_process");
  const { getReadyDb } = await import("@/db/client");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { runCommand } = await import("@/lib/cli/commands");
  const db = await getReadyDb();
  await addDomain(db, "stream.example", "Admin-pass1", {});
  const line = (name: string) => JSON.stringify({ email: `${name}@stream.example`, password_hash: OLD_HASH });
  const [fifo, first, rest, go] = ["fifo", "first", "rest", "go"].map((f) => path.join(dir, f)) as [
    string,
    string,
    string,
    string,
  ];
  fs.writeFileSync(first, `${line("one")}\n${line("two")}\n`);
  fs.writeFileSync(rest, `${line("three")}\n`);
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  const writer = spawn(
    "sh",
    [
      "-c",
      'exec 3>"$1"; cat "$2" >&3; i=0; while [ ! -e "$4" ]; do sleep 0.1; i=$((i+1)); ' +
        'if [ $i -ge 100 ]; then cat "$3" >&3; exit 3; fi; done; cat "$3" >&3; exit 0',
      "writer",
      fifo,
      first,
      rest,
      go,
    ],
    { stdio: "ignore" },
  );
  const exited = new Promise<number | null>((resolve) => writer.on("exit", resolve));
  const printed: string[] = [];
  const output = await runCommand(db, ["account", "import", fifo, "--batch", "2"], (l) => {
    printed.push(l);
    if (l === "created\ttwo@stream.example") fs.writeFileSync(go, "");
    return Promise.resolve();
  });
  expect(await exited).toBe(0);
  expect([...printed, output]).toEqual([
    "created\tone@stream.example",
    "created\ttwo@stream.example",
    "created\tthree@stream.example",
    "3 created, 0 already there, 0 failed",
  ]);
}
