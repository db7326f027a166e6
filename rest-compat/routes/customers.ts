// /api/v1/customers (project API key): the customers of the project.
import { bodyFields } from '../params.js';
import { defineRoute, type RestRoute } from '../route.js';

const CUSTOMER_FIELDS = ['key', 'description'] as const;

export const routes: RestRoute[] = [
  defineRoute<{ createCustomer: unknown }>({
    method: 'POST',
    path: '/api/v1/customers',
    auth: 'apiKey',
    summary: 'Create a customer',
    body: { $ref: '#/components/schemas/CreateCustomerInput' },
    document: `mutation RestCreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { key description } }`,
    toVariables: (req) => ({ input: bodyFields(req.body, CUSTOMER_FIELDS) }),
    toResponse: (data) => ({ data: data.createCustomer }),
  }),
  defineRoute<{ customers: unknown[] }>({
    method: 'GET',
    path: '/api/v1/customers',
    auth: 'apiKey',
    summary: 'List the customers of the project',
    document: `query RestCustomers { customers { key description } }`,
    toVariables: () => ({}),
    toResponse: (data) => ({ data: data.customers }),
  }),
  defineRoute<{ customer: unknown }>({
    method: 'GET',
    path: '/api/v1/customers/:customerKey',
    auth: 'apiKey',
    summary: 'Get one customer',
    document: `query RestCustomer($key: String!) { customer(key: $key) { key description } }`,
    toVariables: (req) => ({ key: req.params.customerKey }),
    toResponse: (data) => ({ data: data.customer }),
  }),
  defineRoute<{ updateCustomer: unknown }>({
    method: 'PATCH',
    path: '/api/v1/customers/:customerKey',
    auth: 'apiKey',
    summary: 'Rename a customer or change its description; its translations follow',
    body: { $ref: '#/components/schemas/UpdateCustomerInput' },
    document: `mutation RestUpdateCustomer($key: String!, $input: UpdateCustomerInput!) { updateCustomer(key: $key, input: $input) { key description } }`,
    toVariables: (req) => ({ key: req.params.customerKey, input: bodyFields(req.body, CUSTOMER_FIELDS) }),
    toResponse: (data) => ({ data: data.updateCustomer }),
  }),
  defineRoute<{ deleteCustomer: boolean }>({
    method: 'DELETE',
    path: '/api/v1/customers/:customerKey',
    auth: 'apiKey',
    summary: 'Delete a customer and its customer-specific translations',
    response: { data: null },
    document: `mutation RestDeleteCustomer($key: String!) { deleteCustomer(key: $key) }`,
    toVariables: (req) => ({ key: req.params.customerKey }),
    toResponse: () => ({}),
  }),
];
