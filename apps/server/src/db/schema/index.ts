export * from './audit.js';
export * from './auth.js';
export * from './cases.js';
export * from './groups.js';
export * from './invitations.js';
export * from './notifications.js';
export * from './oauth.js';
export * from './tutorials.js';
