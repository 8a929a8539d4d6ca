/** The length a customer's password must have (SPEC.md section 5, 8 since decision 034); kept apart from the schemas so a page can say it without loading zod. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
