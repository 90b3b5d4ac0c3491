import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// One source of "now" (docs/decisions/0150-one-source-of-now.md).
const NOW_RULES = [
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: "take `now` from the caller, or systemNow() / sandboxNow() from lib/platform/clock.ts",
  },
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: "take `now` from the caller, or systemNow() / sandboxNow() from lib/platform/clock.ts",
  },
];

// Times are formatted in one module, lib/platform/time-format.ts (docs/operating.md "Times in the console"): the pages, the
// components and the console's glue and reports show a time through it (or components/console/time.tsx), never
// format one themselves. A bare toISOString() (JSON, <time dateTime>) is not display and stays allowed.
const TIME_MESSAGE =
  "format times with lib/platform/time-format.ts (or <ConsoleTime>, components/console/time.tsx): Dubai for the console, the customer's zone named on customer pages";
const TIME_FORMAT_RULES = [
  { selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]", message: `${TIME_MESSAGE} (a number: Intl.NumberFormat)` },
  { selector: "CallExpression[callee.property.name=/^(toUTCString|toDateString|toTimeString|toGMTString)$/]", message: TIME_MESSAGE },
  {
    selector:
      "NewExpression[callee.object.name='Intl'][callee.property.name=/^(DateTimeFormat|RelativeTimeFormat)$/], CallExpression[callee.object.name='Intl'][callee.property.name=/^(DateTimeFormat|RelativeTimeFormat)$/]",
    message: TIME_MESSAGE,
  },
  {
    selector:
      "CallExpression[callee.property.name=/^(slice|substring|substr|split|replace)$/][callee.object.type='CallExpression'][callee.object.callee.property.name='toISOString']",
    message: TIME_MESSAGE,
  },
  {
    selector:
      "CallExpression[callee.name='format'][arguments.length>=2], CallExpression[callee.name=/^(formatISO|formatDistance|formatDistanceToNow|formatDistanceStrict|formatRelative|formatInTimeZone|lightFormat)$/]",
    message: TIME_MESSAGE,
  },
  { selector: "CallExpression[callee.property.name='format'][arguments.0.type=/^(Literal|TemplateLiteral)$/]", message: TIME_MESSAGE },
  { selector: "CallExpression[callee.property.name=/^get(UTC)?(Hours|Minutes|Seconds)$/]", message: TIME_MESSAGE },
];
const TIME_LIBRARIES = {
  group: ["date-fns", "date-fns/*", "date-fns-tz", "dayjs", "dayjs/*", "moment", "moment-timezone", "luxon"],
  message: TIME_MESSAGE,
};

// Layers (docs/architecture.md "Layers and imports").
const LAYER_IMPORTS = [
  { group: ["@/app/*", "@/components/*"], message: "domain code does not import pages or components; move the shared part into lib/" },
  { group: ["@/clients/*"], message: "the service does not import the merchant-side packages (clients/): they import the service's shared parts" },
  {
    group: ["next", "next/*", "next-auth", "next-auth/*", "react", "react-dom"],
    message: "domain code is framework-free; the framework glue lives in app/ and lib/application/console",
  },
  {
    group: ["@/lib/application/console/*"],
    message: "lib/application/console is the console's glue (session, actions, forms); domain code does not depend on it",
  },
];

const QUERY_RULES = [
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
];

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
    ignores: ["**/*.test.ts", "lib/platform/generated/**"],
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
    ignores: ["lib/application/console/**", "**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: LAYER_IMPORTS }] },
  },
  {
    // One source of "now" for the domain (docs/decisions/0150-one-source-of-now.md): lib/platform/clock.ts gives the real time
    // and a merchant's sandbox time; every rule takes its `now` from a caller. The listener, the sandpiper command
    // and verify.ts (a receiver's code, copied by merchants) run on a developer's machine, outside the service's clocks:
    // they live in clients/cli/src, outside lib/.
    files: ["lib/**/*.ts"],
    ignores: ["lib/platform/clock.ts", "**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", ...NOW_RULES] },
  },
  {
    // The console's glue and reports show times: they format them only through lib/platform/time-format.ts (rules above kept,
    // since a rule's options here replace those of the blocks before).
    files: ["lib/application/console/**/*.ts", "lib/domain/reports/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", ...NOW_RULES, ...TIME_FORMAT_RULES] },
  },
  {
    files: ["lib/application/console/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [TIME_LIBRARIES] }] },
  },
  {
    files: ["lib/domain/reports/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...LAYER_IMPORTS, TIME_LIBRARIES] }] },
  },
  {
    // Pages, route handlers and components call services; they query nothing themselves.
    files: ["app/**/*.ts", "app/**/*.tsx", "components/**/*.ts", "components/**/*.tsx"],
    // They show times only through lib/platform/time-format.ts (TIME_FORMAT_RULES above).
    rules: {
      "no-restricted-syntax": ["error", ...QUERY_RULES, ...TIME_FORMAT_RULES],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/platform/generated/*"],
              allowTypeImports: true,
              message: "pages use services and their types, never the database client's values",
            },
            TIME_LIBRARIES,
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
            {
              group: ["@/lib/platform/generated/*"],
              allowTypeImports: true,
              message: "pages use services and their types, never the database client's values",
            },
            TIME_LIBRARIES,
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
    "lib/platform/generated/**",
    "node_modules/**",
    "tmp/**",
    ".data/**",
    "test-results/**",
    "playwright-report/**",
    "clients/typescript/dist/**",
    "clients/cli/dist/**",
    "clients/sandbox/dist/**",
    "dist-packages/**",
  ]),
]);
