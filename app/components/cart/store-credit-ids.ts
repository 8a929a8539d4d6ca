/** The cart's « Mon avoir » fields, which the checkout reads when it posts (apart: the field itself loads only for a customer with credit). */
export const STORE_CREDIT_USE_ID = "store-credit-use";
export const STORE_CREDIT_AMOUNT_ID = "store-credit-amount";
