// The error type every service throws; the handler wrapper turns it into the specified JSON body.
import { errorCatalog, type ErrorKey } from "./catalog";

export interface ErrorBody {
  code: string;
  message: string;
  category: string;
  source?: string;
  attributes?: Record<string, unknown>;
  children?: ErrorBody[];
}

export class ApiError extends Error {
  readonly key: ErrorKey;
  readonly source?: string;
  readonly attributes?: Record<string, unknown>;
  readonly children?: ApiError[];
  /** Its children are failing names of a multi-name request (withNameChildren), not the fields of a body. */
  readonly byName: boolean;

  constructor(
    key: ErrorKey,
    opts: { source?: string; attributes?: Record<string, unknown>; children?: ApiError[]; byName?: boolean } = {},
  ) {
    super(errorCatalog[key].message);
    this.name = "ApiError";
    this.key = key;
    this.source = opts.source;
    this.attributes = opts.attributes;
    this.children = opts.children;
    this.byName = opts.byName ?? false;
  }

  get status(): number {
    return errorCatalog[this.key].status;
  }

  toBody(): ErrorBody {
    const e = errorCatalog[this.key];
    const body: ErrorBody = { code: e.code, message: e.message, category: e.category };
    if (this.source !== undefined) body.source = this.source;
    if (this.attributes) body.attributes = this.attributes;
    if (this.children?.length) body.children = this.children.map((c) => c.toBody());
    return body;
  }
}

export const apiError = (key: ErrorKey, source?: string, attributes?: Record<string, unknown>) =>
  new ApiError(key, { source, attributes });
