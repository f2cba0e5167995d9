// Types of lib/config.mjs (plain JavaScript so that lib/runtime/server.mjs can import it without TypeScript).
export declare const DEFAULT_DATABASE_PATH: string;
export declare function databaseUrl(): string | undefined;
export declare function databaseEngine(): "sqlite" | "postgres";
export declare function databasePath(): string;
export declare function databaseSetting(): string;
export declare function migrationsFolder(): string;
export declare function pgMigrationsFolder(): string;
export declare function serverPort(): number;
export declare function serverHost(): string;
export declare function workersSetting(): string | undefined;
export declare function databasePoolMax(): number;
export declare function nodePgConnectionString(url: string): string;
