// The loader's lint rules: ESLint's recommended rules and typescript-eslint's type-checked
// ones, run by `npm run lint` (and `make ts`) over web/src, web/extension and the unit tests.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Rejections carry DOMExceptions and the page's own thrown values as they are.
      "@typescript-eslint/prefer-promise-reject-errors": "off",
      "@typescript-eslint/only-throw-error": "off",
      // A failure crosses to the loader as its message (a Worker's answer is plain data).
      "preserve-caught-error": "off",
      // IIFEs too: a script wrapped in one is no exception to the rule.
      "max-lines-per-function": ["error", { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // node:test's describe and it return promises the runner itself awaits.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-floating-promises": [
        "error",
        { allowForKnownSafeCalls: [{ from: "package", name: ["describe", "it"], package: "node:test" }] },
      ],
    },
  },
  { ignores: ["dist/**", "types/**", "test/.out/**", "eslint.config.mjs"] },
);
