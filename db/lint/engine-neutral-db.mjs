// Lint rule: code that runs on both engines may not call drizzle's SQLite-only methods, which compile there
// because `Db` and the tables are typed as SQLite's.

/** Members that exist only on drizzle's SQLite handle and query builders (`$client` is the driver itself). */
const SQLITE_ONLY = new Set(["get", "all", "run", "values", "$client"]);

/** A symbol declared by drizzle-orm (not a Map's `values`, a URLSearchParams' `get`, or our dialect's `all`). */
function declaredByDrizzle(symbol) {
  return (symbol?.declarations ?? []).some((d) =>
    /[\\/]node_modules[\\/]drizzle-orm[\\/]/.test(d.getSourceFile().fileName),
  );
}

/** @type {import("eslint").Rule.RuleModule} */
export const engineNeutralDb = {
  meta: {
    type: "problem",
    docs: { description: "forbid drizzle's SQLite-only `.get()`, `.all()`, `.run()`, `.values()` and `$client`" },
    messages: {
      sqliteOnly:
        "`.{{name}}` is SQLite-only and fails on PostgreSQL: await the query builder, or go through dialectOf(db).",
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {};
    const checker = services.program.getTypeChecker();
    return {
      MemberExpression(node) {
        if (node.computed || node.property.type !== "Identifier" || !SQLITE_ONLY.has(node.property.name)) return;
        const name = node.property.name;
        const report = () => context.report({ node: node.property, messageId: "sqliteOnly", data: { name } });
        // `$client` is drizzle's name for the driver on every handle type, so the name alone decides.
        if (name === "$client") return report();
        const call = node.parent;
        if (call.type !== "CallExpression" || call.callee !== node) return;
        // An insert's `.values(rows)` is shared; the SQLite-only `.values()` (raw row arrays) takes no rows.
        if (name === "values" && call.arguments.length > 0) return;
        if (declaredByDrizzle(checker.getSymbolAtLocation(services.esTreeNodeToTSNodeMap.get(node.property)))) report();
      },
    };
  },
};
