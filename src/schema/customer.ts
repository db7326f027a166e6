import { builder } from '../builder.js';
import { createCustomer, customerOfProject, deleteCustomer, updateCustomer } from '../content/customers.js';
import { prisma } from '../db.js';
import { resolveProject } from '../projects/access.js';
import { need } from '../teams/permissions.js';

export const CustomerType = builder.prismaObject('Customer', {
  description: 'A customer: the owner of customer-specific translations.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'Unique in the project, at most 40 characters.' }),
    description: t.exposeString('description', { description: 'At most 255 characters.' }),
  }),
});

const CreateCustomerInput = builder.inputType('CreateCustomerInput', {
  fields: (t) => ({
    key: t.string({
      required: true,
      description: "1-40 characters without whitespace, '/' or '\\'; unique in the project.",
    }),
    description: t.string({ required: false, description: 'At most 255 characters.' }),
  }),
});

const UpdateCustomerInput = builder.inputType('UpdateCustomerInput', {
  description: 'Absent or null fields stay unchanged.',
  fields: (t) => ({
    key: t.string({ required: false, description: 'Renames the customer (its translations follow).' }),
    description: t.string({ required: false, description: 'At most 255 characters.' }),
  }),
});

builder.queryFields((t) => ({
  customers: t.prismaField({
    type: [CustomerType],
    description: 'The customers of the project, by key.',
    args: { projectToken: t.arg.string({ required: false }) },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('customers'));
      return prisma().customer.findMany({ ...query, where: { projectId }, orderBy: [{ key: 'asc' }] });
    },
  }),
  customer: t.prismaField({
    type: CustomerType,
    args: { projectToken: t.arg.string({ required: false }), key: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('customer'));
      const { id } = await customerOfProject(projectId, args.key);
      return prisma().customer.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

builder.mutationFields((t) => ({
  createCustomer: t.prismaField({
    type: CustomerType,
    description: "Creates a customer, within the plan's number of customers per project.",
    args: {
      projectToken: t.arg.string({ required: false }),
      input: t.arg({ type: CreateCustomerInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('createCustomer'));
      const { id } = await createCustomer(projectId, args.input);
      return prisma().customer.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateCustomer: t.prismaField({
    type: CustomerType,
    description: 'Renames a customer (its translations follow) and/or changes its description.',
    args: {
      projectToken: t.arg.string({ required: false }),
      key: t.arg.string({ required: true }),
      input: t.arg({ type: UpdateCustomerInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('updateCustomer'));
      const { id } = await updateCustomer(projectId, args.key, args.input);
      return prisma().customer.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteCustomer: t.boolean({
    description: 'Deletes a customer and its customer-specific translations.',
    args: { projectToken: t.arg.string({ required: false }), key: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('deleteCustomer'));
      await deleteCustomer(projectId, args.key);
      return true;
    },
  }),
}));
