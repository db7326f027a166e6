// GraphQL documents of the project and account settings screens.
import { graphql, type ResultOf } from './graphql';

export const ProjectSettingsQuery = graphql(`
  query ProjectSettings($projectToken: String!) {
    project(projectToken: $projectToken) {
      name projectToken apiKey myRole
      languages { key name isDefault order translationCount }
      customers { key description }
    }
  }
`);
export type SettingsProject = NonNullable<ResultOf<typeof ProjectSettingsQuery>['project']>;

export const RenameProject = graphql(
  `mutation RenameProject($projectToken: String!, $name: String!) { renameProject(projectToken: $projectToken, name: $name) { name } }`,
);
export const RotateApiKey = graphql(
  `mutation RotateApiKey($projectToken: String!) { rotateProjectApiKey(projectToken: $projectToken) { apiKey } }`,
);
export const DeleteProject = graphql(
  `mutation DeleteProject($projectToken: String!) { deleteProject(projectToken: $projectToken) }`,
);

export const CreateLanguage = graphql(
  `mutation CreateLanguage($projectToken: String!, $input: CreateLanguageInput!) { createLanguage(projectToken: $projectToken, input: $input) { key } }`,
);
export const UpdateLanguage = graphql(
  `mutation UpdateLanguage($projectToken: String!, $key: String!, $input: UpdateLanguageInput!) { updateLanguage(projectToken: $projectToken, key: $key, input: $input) { key } }`,
);
export const SetLanguageOrder = graphql(
  `mutation SetLanguageOrder($projectToken: String!, $keys: [String!]!) { setLanguageOrder(projectToken: $projectToken, keys: $keys) { key } }`,
);
export const DeleteLanguage = graphql(
  `mutation DeleteLanguage($projectToken: String!, $key: String!) { deleteLanguage(projectToken: $projectToken, key: $key) }`,
);

export const CreateCustomer = graphql(
  `mutation CreateCustomer($projectToken: String!, $input: CreateCustomerInput!) { createCustomer(projectToken: $projectToken, input: $input) { key } }`,
);
export const UpdateCustomer = graphql(
  `mutation UpdateCustomer($projectToken: String!, $key: String!, $input: UpdateCustomerInput!) { updateCustomer(projectToken: $projectToken, key: $key, input: $input) { key } }`,
);
export const DeleteCustomer = graphql(
  `mutation DeleteCustomer($projectToken: String!, $key: String!) { deleteCustomer(projectToken: $projectToken, key: $key) }`,
);

export const AccountQuery = graphql(`
  query AccountSettings {
    viewer { email name }
    personalTokens { id name prefix createdAt lastUsedAt expiresAt expired }
    sessions { id createdAt lastUsedAt expiresAt userAgent current }
  }
`);
export type AccountData = ResultOf<typeof AccountQuery>;

export const SetDisplayName = graphql(`mutation SetDisplayName($name: String!) { setDisplayName(name: $name) }`);
export const ChangePassword = graphql(
  `mutation ChangePassword($currentPassword: String!, $newPassword: String!) { changePassword(currentPassword: $currentPassword, newPassword: $newPassword) }`,
);
export const CreatePersonalToken = graphql(
  `mutation CreatePersonalToken($name: String!, $expiresAt: DateTime) { createPersonalToken(name: $name, expiresAt: $expiresAt) { token personalToken { id } } }`,
);
export const RevokePersonalToken = graphql(`mutation RevokePersonalToken($id: Int!) { revokePersonalToken(id: $id) }`);
export const SignOutSession = graphql(`mutation SignOutSession($id: Int!) { signOutSession(id: $id) }`);
export const SignOutOtherSessions = graphql(`mutation SignOutOtherSessions { signOutOtherSessions }`);
