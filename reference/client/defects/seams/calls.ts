/** The seams of the reference client's calls (see ../seams.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as defects move to hooks
export interface CallSeams {}
