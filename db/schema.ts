// The tables as the services see them. Services are written once against these objects (docs/architecture.md);
// the SQLite schema in db/sqlite/schema.ts is the reference shape.
export * from "./sqlite/schema";
