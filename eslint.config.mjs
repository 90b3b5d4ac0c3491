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
    // Money is never a JS number in service code.
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-globals": ["error", { name: "parseFloat", message: "money stays in bigint minor units and decimal.js" }],
      "no-restricted-properties": ["error", { property: "toFixed", message: "use fromMinor / formatRate (decimal.js)" }],
    },
  },
  globalIgnores([".next/**", "out/**", "build/**", "next-env.d.ts", "lib/generated/**", "node_modules/**", "tmp/**", ".data/**", "test-results/**", "playwright-report/**"]),
]);
