from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "config.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from config.accounts.middleware import stamp_login

        user_logged_in.connect(stamp_login, dispatch_uid="accounts.stamp_login")
