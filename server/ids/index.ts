export * from './request-id';
export * from './resource-id';
