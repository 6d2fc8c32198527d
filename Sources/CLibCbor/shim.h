#pragma once
#include <cbor.h>
