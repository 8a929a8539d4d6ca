import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

/** The classes given (clsx), a later Tailwind class overriding an earlier one of its group under the same modifiers (tailwind-merge). */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
