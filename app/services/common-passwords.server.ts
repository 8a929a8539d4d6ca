import list from "./common-passwords.txt?raw";

/**
 * The full list of common and breached passwords (about 18,000 of 8 characters or more, see the
 * head of common-passwords.txt), on the server only: `.server` keeps it out of every browser
 * bundle, where the form checks the short list of app/domain/common-passwords.ts instead
 * (decision 034). Read into a set on first use.
 */
let passwords: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  passwords ??= new Set(list.split("\n").filter((line) => line !== "" && !line.startsWith("#")));
  return passwords;
}

/** Whether the password is on the list, whatever its case. */
export function isCommonPasswordOnServer(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}

/** How many passwords the list holds (for the tests). */
export function commonPasswordCount(): number {
  return commonPasswords().size;
}
