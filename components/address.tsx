// An address or name that may break only after "@" and the local part's dots on a narrow screen, never mid-word
// nor within the domain (unless one part alone is wider than the line). overflow-wrap: break-word, not anywhere:
// "anywhere" lets a table column shrink to one character, and the domain then breaks wherever the column ends.
import { Fragment } from "react";

/**
 * `phoneColumn`: the address is in the one column of a phone's table that takes what the others leave (the resource
 * tables' name column below md). There the part before the domain ("name") or the whole text ("all") breaks
 * anywhere, so a long unbroken name or outside address no longer sets the column's minimum and pushes the table past
 * its card; with "name" the domain still does, so a row's own address keeps its domain on one line.
 */
export function Address({ text, phoneColumn }: { text: string; phoneColumn?: "name" | "all" }) {
  const at = text.lastIndexOf("@");
  const [local, domain] = at < 0 ? [text, ""] : [text.slice(0, at + 1), text.slice(at + 1)];
  const localParts = local.split(/(?<=[@.])/).map((p, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {p}
    </Fragment>
  ));
  return (
    <span className={phoneColumn === "all" ? "break-words max-md:wrap-anywhere" : "break-words"}>
      {phoneColumn === "name" ? <span className="max-md:wrap-anywhere">{localParts}</span> : localParts}
      {domain && (
        <>
          <wbr />
          {domain}
        </>
      )}
    </span>
  );
}
