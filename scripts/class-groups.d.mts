// Types of scripts/class-groups.mjs for its test (app/lib/class-merge.test.ts).
export const GENERATED_FILE: string;
export function classVocabulary(dir?: string): string[];
export function generateClassGroups(words?: string[]): string;
