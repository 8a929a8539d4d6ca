export * from "./auth";
export * from "./messaging";
export * from "./orders";
export * from "./product-admin";
export * from "./products";
export * from "./rate-limits";
export * from "./payments";
export * from "./promotions";
