import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from './graphql';
import { messageOf } from './feedback';
import { usePageTitle } from './page-title';
import { useTranslation } from 'react-i18next';

const SignInMutation = graphql(`
  mutation SignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { email } }
`);

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [{ fetching }, signIn] = useMutation(SignInMutation);
  const { t } = useTranslation();
  usePageTitle(t('signIn.title'));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    const result = await signIn({ email, password });
    if (result.error) {
      setError(messageOf(result.error));
      return;
    }
    onSignedIn();
  };
  return (
    <main className="signin">
      <p className="product">{t('app.product')}</p>
      <h1>{t('signIn.title')}</h1>
      <form onSubmit={submit}>
        <label>
          {t('signIn.email')}
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          {t('signIn.password')}
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={fetching}>
          {t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
