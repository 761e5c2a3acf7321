/** The run cannot go on: the server could not be reached or its tools could not be listed (exit 1). */
export class Fatal extends Error {}
