// A file argument that cannot be read, told in one line. Apart from args.ts, which imports the services: backup.ts
// uses it, and tests load backup.ts without the react-server condition those need.
import fs from "node:fs";

/**
 * A file argument that cannot be read, as one line naming it (exit status 1, like any command that could not be done:
 * the argument is well formed, the file is not there to read); other errors pass unchanged.
 */
export function unreadableFile(file: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === "ENOENT"
      ? "there is no such file"
      : code === "EISDIR"
        ? "it is a folder, not a file"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : undefined;
  return why ? new Error(`cannot read ${file}: ${why}`) : err;
}

/** A file argument that must be there to read (not a folder); unreadable, it fails as unreadableFile says. */
export function checkReadableFile(file: string): void {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (fs.statSync(file).isDirectory()) throw Object.assign(new Error(file), { code: "EISDIR" });
  } catch (err) {
    throw unreadableFile(file, err);
  }
}
