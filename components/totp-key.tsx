// A new two-step sign-in key for the authenticator app: its QR code, and the key to type by hand.
import { Fragment } from "react";

export function TotpKey({
  qrSvg,
  secret,
  label,
  manual,
  className = "",
}: {
  /** The SVG of the `qrcode` package: paths only, no script. */
  qrSvg: string;
  secret: string;
  /** The QR code's accessible name. */
  label: string;
  /** The text before the key typed by hand. */
  manual: string;
  /** Added to the QR code's classes (e.g. to centre it). */
  className?: string;
}) {
  return (
    <>
      <div
        className={`h-48 w-48 border border-gray-300 ${className}`}
        role="img"
        aria-label={label}
        dangerouslySetInnerHTML={{ __html: qrSvg }}
      />
      <p className="text-sm">
        {manual}{" "}
        {/* In groups of four, as authenticator apps show keys: easier to type and check; the apps ignore the spaces. */}
        <code className="font-mono" data-testid="totp-secret">
          {secret.match(/.{1,4}/g)!.map((group, i) => (
            <Fragment key={i}>
              {i > 0 && " "}
              <span className="whitespace-nowrap">{group}</span>
            </Fragment>
          ))}
        </code>
      </p>
    </>
  );
}
