export * from './resource-id';
