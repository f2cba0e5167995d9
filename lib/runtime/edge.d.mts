// Types of lib/runtime/edge.mjs (plain JavaScript so that lib/runtime/server.mjs can import it without TypeScript).
export declare const PEER_ADDRESS_HEADER: "x-mailadmin-peer-address";
export declare const FORWARDED_FOR_HEADER: "x-mailadmin-forwarded-for";
export declare const FIXED_POLICY_DIRECTIVES: readonly string[];
export declare const BASELINE_PAGE_HEADERS: Readonly<Record<string, string>>;
export declare const BASELINE_HEADERS: Readonly<Record<string, string>>;
interface EdgeError {
  readonly code: string;
  readonly category: "internal" | "resource_missing";
  readonly message: string;
}
export declare const EDGE_ERRORS: { readonly endpointNotFound: EdgeError; readonly malformedRequest: EdgeError };
export declare function edgeErrorBody(key: keyof typeof EDGE_ERRORS): string;
