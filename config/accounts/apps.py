from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "config.accounts"
    label = "accounts"
    verbose_name = "Accounts"
