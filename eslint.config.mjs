import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Service code says what it holds: no `any` (tests may use it for answers they inspect loosely).
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "components/**/*.tsx", "components/**/*.ts"],
    ignores: ["**/*.test.ts", "lib/generated/**"],
    rules: { "@typescript-eslint/no-explicit-any": "error" },
  },
  {
    // Money is never a JS number in service code.
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-globals": ["error", { name: "parseFloat", message: "money stays in bigint minor units and decimal.js" }],
      "no-restricted-properties": ["error", { property: "toFixed", message: "use fromMinor / formatRate (decimal.js)" }],
    },
  },
  {
    // Layers (docs/architecture.md "Layers and imports"): domain code in lib/ knows nothing of pages, components,
    // Next.js, React or the console's glue; it takes plain values and a transaction.
    files: ["lib/**/*.ts"],
    ignores: ["lib/console/**", "**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/app/*", "@/components/*"], message: "domain code does not import pages or components; move the shared part into lib/" },
            { group: ["@/clients/*"], message: "the service does not import the merchant-side packages (clients/): they import the service's shared parts" },
            {
              group: ["next", "next/*", "next-auth", "next-auth/*", "react", "react-dom"],
              message: "domain code is framework-free; the framework glue lives in app/ and lib/console",
            },
            { group: ["@/lib/console/*"], message: "lib/console is the console's glue (session, actions, forms); domain code does not depend on it" },
          ],
        },
      ],
    },
  },
  {
    // One source of "now" for the domain (docs/decisions.md "One source of now"): lib/clock.ts gives the real time
    // and a merchant's sandbox time; every rule takes its `now` from a caller. The listener, the sandpiper command
    // and verify.ts (a receiver's code, copied by merchants) run on a developer's machine, outside the service's clocks:
    // they live in clients/cli/src, outside lib/.
    files: ["lib/**/*.ts"],
    ignores: ["lib/clock.ts", "**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: "take `now` from the caller, or systemNow() / sandboxNow() from lib/clock.ts",
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: "take `now` from the caller, or systemNow() / sandboxNow() from lib/clock.ts",
        },
      ],
    },
  },
  {
    // Pages, route handlers and components call services; they query nothing themselves.
    files: ["app/**/*.ts", "app/**/*.tsx", "components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.object.type='MemberExpression'][callee.property.name=/^(findMany|findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|count|aggregate|groupBy|create|createMany|update|updateMany|upsert|delete|deleteMany)$/]",
          message: "pages and components query nothing: call a service in lib/<domain>/",
        },
        {
          selector:
            "CallExpression[callee.property.name=/^\\$(queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe|transaction)$/], TaggedTemplateExpression[tag.property.name=/^\\$(queryRaw|executeRaw)$/]",
          message: "pages and components query nothing: call a service in lib/<domain>/",
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/lib/generated/*"], allowTypeImports: true, message: "pages use services and their types, never the database client's values" },
          ],
        },
      ],
    },
  },
  {
    // Components are below the pages: a page passes a Server Action to a component as a prop
    // (docs/architecture.md "Layers and imports").
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/app/*", "@/app"], message: "components do not import pages or Server Actions: take the action as a prop from the page" },
            { group: ["@/lib/generated/*"], allowTypeImports: true, message: "pages use services and their types, never the database client's values" },
          ],
        },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    "out/**",
    "build/**",
    "next-env.d.ts",
    "lib/generated/**",
    "node_modules/**",
    "tmp/**",
    ".data/**",
    "test-results/**",
    "playwright-report/**",
    "clients/typescript/dist/**",
    "clients/cli/dist/**",
    "dist-packages/**",
  ]),
]);
