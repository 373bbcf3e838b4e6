// Rows per page of the panel's lists (shared by the server page and the client list, so it
// lives outside the "use client" modules, whose exports are client references on the server).
export const BUSINESSES_PAGE_SIZE = 20;
export const PROJECTS_PAGE_SIZE = 20;
export const SESSIONS_PAGE_SIZE = 50;
export const AGENTS_PAGE_SIZE = 50;
export const APPROVALS_PAGE_SIZE = 20;
export const NOTIFICATIONS_PAGE_SIZE = 20;
