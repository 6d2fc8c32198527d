#pragma once
#include <libsecret/secret.h>
