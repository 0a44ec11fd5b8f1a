// The types of what eslint.config.mjs exports besides the config, for the tests that share its figures.

/** The longest a shipped source file may be, in lines that are neither blank nor comments. */
export declare const maxFileLines: number;

declare const config: unknown[];
export default config;
