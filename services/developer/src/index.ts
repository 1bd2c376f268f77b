export { developerModule } from './developer';
export { apiDescription, describeRoutes, UNDESCRIBED_PREFIXES } from './openapi/api-description';
export { postmanCollection, SIGNING_SCRIPT } from './openapi/postman-collection';
