from django.contrib.auth import views as auth_views
from django.urls import path

from config.accounts import password_views, signup_views, views

urlpatterns = [
    path("login/", views.LoginView.as_view(redirect_authenticated_user=False), name="login"),
    path("login/code/", views.login_code, name="login-code"),
    path("two-factor/", views.two_factor, name="two-factor"),
    # sign-up with a confirmed e-mail address (docs/accounts.md)
    path("signup/", signup_views.signup_view, name="signup"),
    path("signup/done/", signup_views.signup_done, name="signup-done"),
    path("verify/resend/", signup_views.resend, name="verify-resend"),
    path("verify/<str:token>/", signup_views.verify, name="verify"),
    # Django's password views, at Django's paths and names
    path(
        "password_change/",
        password_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password_reset/", password_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        password_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
