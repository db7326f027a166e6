import { GraphQLError, Kind, valueFromASTUntyped } from 'graphql';
import { builder } from '../builder.js';
import { isoString } from './iso-string.js';

builder.scalarType('DateTime', {
  description: 'An ISO 8601 UTC timestamp.',
  serialize: (value) => isoString(value instanceof Date ? value : new Date(value as string | number)),
  parseValue: (value) => {
    const date = new Date(value as string);
    if (typeof value !== 'string' || Number.isNaN(date.getTime()))
      throw new GraphQLError('DateTime must be an ISO 8601 string');
    return date;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || Number.isNaN(new Date(ast.value).getTime()))
      throw new GraphQLError('DateTime must be an ISO 8601 string');
    return new Date(ast.value);
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
