// typescript-eslint's type-checked recommended rules over everything we write. Each exception
// below says which deliberate choice the rule fights.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "generated/", "schema/", "dist/", "test/.tmp/", "bench/.tmp/", "**/.mcp-bindgen-*/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.config.ts", "*.config.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Handler tables are typed `(params) => Result | Promise<Result>`; an async handler with no
      // await is the shape users write, and the tests and benches mirror it.
      "@typescript-eslint/require-await": "off",
      // A leading underscore marks a parameter or binding kept for its position.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      // The JSON and header checks match control characters on purpose.
      "no-control-regex": "off",
    },
  },
  {
    // ts-morph's values come through common/ts-morph.ts, loaded with require: an ESM import of its
    // CommonJS bundle makes Node scan it for export names first, a tenth of a second of every cold run.
    files: ["generator/**/*.ts"],
    ignores: ["generator/common/ts-morph.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "ts-morph",
              message: "Import its values from generator/common/ts-morph.ts.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Tests build and mutate raw schema documents and parsed JSON, which are `any` by nature;
    // what they produce is checked by tsc on the generated types and by the assertions.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    files: ["**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: "readonly", console: "readonly" },
    },
  },
);
