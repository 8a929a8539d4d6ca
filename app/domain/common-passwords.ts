/**
 * The most common passwords (worldwide and French lists), refused at sign-up and reset even
 * when long enough: they fall first in any guessing attack.
 */
const COMMON = `123456 123456789 12345678 12345 1234567 1234567890 123123 111111 000000 654321 666666 121212
112233 123321 123654 987654321 password password1 password123 passw0rd motdepasse motdepasse1 azerty azerty1
azerty123 azertyuiop qwerty qwerty1 qwerty123 qwertyuiop abc123 abcdef abcd1234 a123456 aaaaaa iloveyou
jetaime jetaime1 soleil soleil1 bonjour bonjour1 doudou chouchou loulou nicolas marseille marseille13 olivier
football coucou camille princesse pokemon pokemon1 pikachu dracaufeu dragon dragon1 monkey sunshine
princess letmein welcome admin admin123 administrateur root toor test test123 testtest user1234 master
shadow superman batman michael jordan23 baseball trustno1 starwars whatever freedom charlie donald
hello123 hello1 secret secret1 changeme 1q2w3e4r 1qaz2wsx zaq12wsx q1w2e3r4 asdfgh asdfghjkl zxcvbnm
123qwe 1234qwer qwe123 q1w2e3 mustang michelle jennifer hunter hunter2 killer access flower cheese
computer internet samsung apple123 google orange doudou1 loveyou chocolat chocolat1 vacances maman papa
famille 7777777 11111111 88888888 12341234 159753 147258369 789456123 987654 555555 999999 131313
comptoir comptoir1`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(COMMON.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}
