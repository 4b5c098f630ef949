import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OidcRegistration } from './oidc-registration';
import { SsoController } from './sso.controller';
import { SsoFlow } from './sso-flow';
import { SsoRefusalAudit } from './sso-refusal-audit';
import { SsoSignInService } from './sso-sign-in.service';

/** OpenID Connect single sign-on to the console (the `oidc` strategy in the app's passport registry). */
@Module({
  imports: [AuthModule],
  controllers: [SsoController],
  providers: [OidcRegistration, SsoFlow, SsoRefusalAudit, SsoSignInService],
})
export class SsoModule {}
