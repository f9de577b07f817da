import { createSchema } from 'graphql-yoga';
import { resolvers, type GraphQLContext } from './resolvers.ts';
import { SDL } from './sdl.ts';

/** The executable schema: the SDL with its resolvers, built once and shared by every content root. */
export const schema = createSchema<GraphQLContext>({ typeDefs: SDL, resolvers });
