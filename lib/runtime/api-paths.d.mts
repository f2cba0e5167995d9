export declare const UNKNOWN_API_PATH: string;
export declare const UNKNOWN_PANEL_API_PATH: string;
export declare function apiPathWithoutRedirect(url: string): string;
