/** The header a trusted portal names its end user with (the portal's own id for that user). */
export const END_USER_HEADER = 'x-end-user-id';
